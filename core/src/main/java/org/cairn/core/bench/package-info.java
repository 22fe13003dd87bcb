/** Reproducible test and benchmark inputs: synthetic process-memory images and their successors. */
package org.cairn.core.bench;
