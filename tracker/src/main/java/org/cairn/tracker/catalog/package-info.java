/** Versions (stdchk's app/node/step) and the per-app chunk index with holders and reference counts. */
package org.cairn.tracker.catalog;
