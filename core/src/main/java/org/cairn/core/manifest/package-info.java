/** A version's chunk map and metadata, serialised as JSON with a schema version. */
package org.cairn.core.manifest;
