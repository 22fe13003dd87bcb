package org.cairn.cli.condor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FailureTest {
  private static Failure of(int code, String err) {
    return Failure.of(new CommandRunner.Result(code, "", err));
  }

  @ParameterizedTest
  @ValueSource(ints = {401, 403, 404, 40401, 43401, 44403, 14040})
  void aTrackerThatIsDownIsAContactErrorWhateverItsPortNumberReads(int port) {
    Failure f = of(1, "cairn: store failed: tracker http://127.0.0.1:" + port
        + " unreachable: Connection refused (is it running? check --tracker or CAIRN_TRACKER)");
    assertThat(f.kind()).isEqualTo(Failure.Kind.CONTACT);
    assertThat(f.message()).contains(":" + port);
  }

  @Test
  void aHostNamedLikeAStatusCodeIsNotOneEither() {
    assertThat(of(1, "cairn: fetch failed: tracker https://tracker-401.example:8443 unreachable: timed out").kind())
        .isEqualTo(Failure.Kind.CONTACT);
  }

  @Test
  void aRefusedTokenIsAnAuthorizationErrorThatIsNotRetried() {
    Failure f = of(1, "cairn: store failed: tracker http://10.0.0.4:7070 answered 401: the grid token was refused");
    assertThat(f.kind()).isEqualTo(Failure.Kind.AUTHORIZATION);
    assertThat(f.kind().retryable).isEqualTo(-1);
    assertThat(of(1, "cairn: HTTP 403 Forbidden").kind()).isEqualTo(Failure.Kind.AUTHORIZATION);
  }

  @Test
  void aMissingVersionIsASpecificationError() {
    assertThat(of(1, "cairn: fetch failed: 404 from http://127.0.0.1:40401/api/versions/x").kind())
        .isEqualTo(Failure.Kind.SPECIFICATION);
    assertThat(of(1, "cairn: no committed version of job.a").kind()).isEqualTo(Failure.Kind.SPECIFICATION);
  }

  @Test
  void aUsageErrorIsAParameterErrorWhateverItSays() {
    assertThat(of(2, "cairn: unknown option --x (tracker http://h:401)").kind()).isEqualTo(Failure.Kind.PARAMETER);
  }
}
