/**
 * The data path without a network: image to fragments (store) and fragments to image (fetch),
 * chunks in parallel on all cores with bounded memory (FALCON-P).
 */
package org.cairn.core.pipeline;
