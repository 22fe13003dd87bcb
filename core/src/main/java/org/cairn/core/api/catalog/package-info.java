/** The records of the catalog on the tracker's API: placement questions and answers, pending and committed versions, chunk lookups, held chunks, policies. */
package org.cairn.core.api.catalog;
