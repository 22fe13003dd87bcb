package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * {@code GET /api/v1/cluster}: the tracker group, its leader and each member's address and role
 * ({@code leader}, {@code follower}). A single tracker is a group of one, its own leader.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ClusterView(String leader, List<Member> members, String self, Long applied) {

  /**
   * {@code self} is the member that answered and {@code applied} the last entry of the group's log it
   * has applied (null for a lone tracker).
   */
  public ClusterView(String leader, List<Member> members) {
    this(leader, members, null, null);
  }

  /**
   * One tracker of the group: {@code address} is where it serves (a lone tracker) or replicates the
   * group's log ({@code --peers}); {@code url} its API, once it has led (else null).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Member(String id, String address, String role, String url) {
    public Member(String id, String address, String role) {
      this(id, address, role, null);
    }
  }
}
