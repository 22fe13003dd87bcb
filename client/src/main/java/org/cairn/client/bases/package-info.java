/** The client's base cache: the records of chunks this host stored or fetched, kept in packs, which a successor store deltas against and a fetch reads instead of the grid. */
package org.cairn.client.bases;
