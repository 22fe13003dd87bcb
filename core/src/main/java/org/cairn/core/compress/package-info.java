/** Chunk compression behind one small interface: zstd (zstd-jni), gzip, none, and auto. */
package org.cairn.core.compress;
