// Parses the options and runs the server; failures are one line with a documented exit code.
await ServerCommand.runReportingOneLine()
