/** Catalog records: each version's catalog entry sealed and stored on the grid, so the catalog can be rebuilt from the peers. */
package org.cairn.core.catalog;
