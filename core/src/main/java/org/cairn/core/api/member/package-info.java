/** The records of a donor's membership on the tracker's API: registration, heartbeats and what they answer, tickets, the data-plane key, a peer as others see it. */
package org.cairn.core.api.member;
