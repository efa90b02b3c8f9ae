// Parses the options and runs the server (or an operator command); failures are one line with a documented exit code.
await GeoNewsServeCommand.runReportingOneLine()
