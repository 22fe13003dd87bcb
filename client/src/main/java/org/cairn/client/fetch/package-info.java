/** The fetch path and its audit: a version back to bytes (fetch) and the read of every chunk of a version without writing it (verify), both through core's one reader. */
package org.cairn.client.fetch;
