/** The JSON messages of the tracker's HTTP API ({@code /api/v1}), shared by tracker, peers and clients. */
package org.cairn.core.api;
