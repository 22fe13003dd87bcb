/**
 * Client-side encryption of chunks: per-app keys (Google Tink keysets), keyed chunk ids
 * and the sealing of compressed chunks, so that peers and the tracker only ever hold ciphertext.
 */
package org.cairn.core.crypto;
