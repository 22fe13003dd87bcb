/**
 * The one read path for pieces: {@link org.cairn.core.read.ChunkReader} reads a chunk's pieces from
 * its holders (fetch, verify, repair all use it), {@link org.cairn.core.read.PieceCensus} asks holders
 * which pieces they hold, and {@link org.cairn.core.read.BadPieceLog} collects bad pieces for the tracker.
 */
package org.cairn.core.read;
