#!/usr/bin/env node
// The `strata` command: checked in (and executable) so npm links it before the build runs.
import '../dist/cli.js'
