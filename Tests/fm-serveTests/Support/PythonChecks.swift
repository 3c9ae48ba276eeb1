// The fm serve suites' Python check scripts (fm_serve_*.py), run and read
// in one place: each script prints `ok: ` for a check that passed, `info: `
// for figures worth a look, and anything else for a failure.

import Foundation
import TestSupport
import Testing

/// One run of a Python check script, judged by its lines. FMServeTests,
/// FMServeLoadTests and FMServeBrowserTests each read the scripts' lines
/// with a copy of their own; this is the one reading, with what each did
/// with `info: ` lines kept as ``InfoLines``.
enum PythonChecks {
    /// What a run's `info: ` lines are to the test.
    enum InfoLines {
        /// Passed over: the script's remarks.
        case ignored
        /// Printed for the log after `label: ` (the load figures, a page's screenshot).
        case printed(label: String)
        /// Not expected from the script: issues, as any line but `ok: ` is.
        case issues
    }

    /// The folder of the scripts and of the files they load (fm_serve_wrk.lua)
    /// or serve (fm_serve_browser.html): this target's, Tests/fm-serveTests,
    /// found from this file's path.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `script` (in ``folder``) with `arguments` on the
    /// interpreter of scripts/openai_env.sh, then judges its lines
    /// (``judge(_:expecting:what:info:sourceLocation:)``).
    static func run(
        _ script: String, _ arguments: [String], expecting count: Int, what: String? = nil, info: InfoLines = .ignored,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let python = try TestMachine.python(environment: "openai_env.sh")
        let path = folder.appendingPathComponent(script).path
        let ran = try TestMachine.run([python, path] + arguments)
        judge(ran, expecting: count, what: what, info: info, sourceLocation: sourceLocation)
    }

    /// Records every line but `ok: ` (and `info: `, as `info` says) as an
    /// issue, then expects exit status 0 and `count` checks passed; `what`
    /// names the run in the message (`"fm_serve_ops.py metrics: 19 of 20
    /// checks passed"`).
    static func judge(
        _ ran: ChildProcess.Output, expecting count: Int, what: String? = nil, info: InfoLines = .ignored,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = ran.standardOutput.split(separator: "\n")
        for line in lines where !line.hasPrefix("ok: ") {
            switch (line.hasPrefix("info: "), info) {
            case (true, .ignored):
                continue
            case (true, .printed(let label)):
                print("\(label): \(line.dropFirst(6))")
            default:
                Issue.record("\(line)", sourceLocation: sourceLocation)
            }
        }
        #expect(ran.status == 0, sourceLocation: sourceLocation)
        let passed = lines.filter { $0.hasPrefix("ok: ") }.count
        #expect(passed == count, "\(what.map { "\($0): " } ?? "")\(passed) of \(count) checks passed", sourceLocation: sourceLocation)
    }
}
