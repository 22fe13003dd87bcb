/** What the tracker, the peers and the client share: the data path from image to fragments and back. */
package org.cairn.core;
