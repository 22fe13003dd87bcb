/** The client library: store and fetch checkpoints over a grid (tracker API + peers' data plane). */
package org.cairn.client;
