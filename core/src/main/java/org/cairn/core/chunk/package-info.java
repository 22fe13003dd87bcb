/** Fixed-size chunking (FsCH) of files, streams and deterministic tar images of directories. */
package org.cairn.core.chunk;
