import Commands

// The `codesweep` binary: the commands as a user runs them (Sources/Commands).
CodeSweepCommand.runFromCommandLine()
