package org.cairn.cli.condor;

import java.util.List;

/**
 * One file's result ad, with the attributes HTCondor's multi-file plug-ins write (FileTransferStats::Publish, the example
 * plug-in): {@code TransferSuccess}, {@code TransferProtocol}, {@code TransferType}, {@code TransferFileName},
 * {@code TransferUrl}, {@code TransferFileBytes}, {@code TransferTotalBytes}, {@code TransferStartTime},
 * {@code TransferEndTime}, {@code ConnectionTimeSeconds}, {@code DeveloperData} (with {@code TransferTries}); on failure
 * {@code TransferError} and {@code TransferErrorData} (a list of one error ad).
 */
final class ResultAd {
  private final String url;
  private final String fileName;
  private final String type;
  private final String server;
  private final long startMillis = System.currentTimeMillis();
  private final ClassAd developer = new ClassAd().put("TransferTries", 1);

  ResultAd(String url, String fileName, String type, String tracker) {
    this.url = url;
    this.fileName = fileName;
    this.type = type;
    this.server = tracker != null ? tracker : "the cairn tracker";
  }

  void version(String version) {
    developer.put("CairnVersion", version);
  }

  void exitCode(int code) {
    developer.put("CairnExitCode", code);
  }

  ClassAd success(long fileBytes, long totalBytes) {
    return common(true, fileBytes, totalBytes);
  }

  ClassAd failure(Failure f) {
    ClassAd ad = common(false, 0, 0);
    ad.put("TransferError", f.message());
    ClassAd error = new ClassAd().put("ErrorType", f.kind().type).put("ErrorCode", f.code() == 0 ? 1 : f.code())
        .put("ErrorString", f.message()).put("Retryable", f.kind().retryable);
    switch (f.kind()) {
      case PARAMETER -> error.put("PluginVersion", CondorPlugin.version()).put("PluginLaunched", true);
      case AUTHORIZATION -> error.put("FailedServer", server).put("FailureType", "Authentication").put("ShouldRefresh", false);
      case TRANSFER -> {
        error.put("FailedServer", server);
        if (f.message().contains("No space left")) {
          error.put("FailureType", "NoSpace");
        }
      }
      default -> error.put("FailedServer", server);
    }
    ad.put("TransferErrorData", new ClassAd.ListValue(List.of(new ClassAd.Nested(error))));
    return ad;
  }

  private ClassAd common(boolean ok, long fileBytes, long totalBytes) {
    long end = System.currentTimeMillis();
    ClassAd ad = new ClassAd().put("TransferSuccess", ok).put("TransferProtocol", CairnUrl.SCHEME).put("TransferType", type);
    if (fileName != null) {
      ad.put("TransferFileName", fileName);
    }
    ad.put("TransferFileBytes", fileBytes).put("TransferTotalBytes", totalBytes).put("TransferStartTime", startMillis / 1000)
        .put("TransferEndTime", end / 1000).put("ConnectionTimeSeconds", new ClassAd.Real((end - startMillis) / 1000.0));
    if (url != null) {
      ad.put("TransferUrl", url);
    }
    return ad.put("DeveloperData", new ClassAd.Nested(developer));
  }
}
