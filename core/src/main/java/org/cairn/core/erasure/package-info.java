/**
 * Redundancy schemes: Reed-Solomon over GF(2^8), an XOR-only Cauchy code, and replication, all
 * behind {@link org.cairn.core.erasure.Redundancy}.
 */
package org.cairn.core.erasure;
