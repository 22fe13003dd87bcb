package org.cairn.core.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/cluster}: the tracker group, its leader and each member's address and role
 * ({@code leader}, {@code follower}). A single tracker is a group of one, its own leader.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ClusterView(String leader, List<Member> members) {

  /** One tracker of the group. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Member(String id, String address, String role) {}
}
