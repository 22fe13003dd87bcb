/** Content ids: SHA-256 of a chunk's plaintext. */
package org.cairn.core.hash;
