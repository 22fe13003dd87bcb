/** App keys on the client: where they live (0700 directories, 0600 files), how they are made, exported and imported. */
package org.cairn.client.keys;
