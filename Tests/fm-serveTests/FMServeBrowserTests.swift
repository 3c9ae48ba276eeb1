// fm serve from a browser: a page on one origin (fm_serve_browser.html,
// served by Python's http.server on 127.0.0.1, a port of its own) loaded in
// headless Chromium calls fm serve on another origin (127.0.0.1, another
// port) and shows the answer; fm_serve_browser.py reads the page's DOM
// (--dump-dom) and its screenshot. With `--cors-origin` naming the page's
// origin the page shows the answer; without it the browser refuses the
// response and the page shows the fetch's error. About 10 seconds.

import Foundation
import TestSupport
import Testing

@Suite(
    "fm serve from a browser", .serialized, .tags(.model), .needs(.smallModel),
    .enabled(if: Browser.chromium != nil, Comment(rawValue: Browser.absence)))
struct FMServeBrowserTests {
    @Test func aPageOnAnotherOriginShowsTheAnswerOnlyWhereCORSAllowsIt() throws {
        let chromium = try #require(Browser.chromium)
        let site = try StaticSite(files: ["fm_serve_browser.html"])
        defer { site.stop() }
        let page = site.origin + "/fm_serve_browser.html"

        let allowed = try FMServeProcess(arguments: ["--cors-origin", site.origin])
        try Self.runChecks(page: page, server: allowed, chromium: chromium, mode: "allowed", expecting: 5)
        #expect(allowed.stop() == 0)

        let off = try FMServeProcess()
        try Self.runChecks(page: page, server: off, chromium: chromium, mode: "off", expecting: 3)
        #expect(off.stop() == 0)
    }

    /// Runs fm_serve_browser.py on `page` against `server` (``PythonChecks``),
    /// its `info: ` lines printed for the log.
    static func runChecks(page: String, server: FMServeProcess, chromium: String, mode: String, expecting count: Int) throws {
        try PythonChecks.run(
            "fm_serve_browser.py", [page, server.baseURL, FMServeProcess.apiKey, FMServeProcess.modelName, chromium, mode],
            expecting: count, what: mode, info: .printed(label: "fm serve from a browser")
        )
    }
}

/// Headless Chromium, where installed (`make setup` installs Debian's `chromium`).
enum Browser {
    /// `chromium` (Debian) or `chromium-browser` on PATH.
    static let chromium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for name in ["chromium", "chromium-browser"] {
            for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    static let absence = "needs Chromium: `chromium` or `chromium-browser` on PATH (`make setup` installs Debian's chromium)"
}

/// Test files served over HTTP from a folder of their own by Python's
/// http.server on 127.0.0.1 and a free port: a page's origin. A
/// ``ChildServer``: killed when it goes away, never left running.
final class StaticSite: Sendable {
    let process: ChildServer
    let folder: URL
    let origin: String

    init(files: [String]) throws {
        let python = try TestMachine.python(environment: "openai_env.sh")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fm-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(
                at: PythonChecks.folder.appendingPathComponent(file),
                to: folder.appendingPathComponent(file)
            )
        }
        // -u: the line saying where it serves comes at once, not when a
        // buffer fills. Standard error, the access log, goes nowhere.
        process = try ChildServer(
            URL(fileURLWithPath: python), ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path],
            standardError: .discarded
        )
        // "Serving HTTP on 127.0.0.1 port 40261 (http://127.0.0.1:40261/) ..."
        let text = if case .line(let line) = process.nextLineBlocking(within: .seconds(60)) { line } else { "" }
        guard let range = text.range(of: #"port \d+"#, options: .regularExpression),
            let port = Int(text[range].dropFirst(5))
        else {
            process.stop()
            throw FMServeError(description: "http.server did not say where it serves: \(text)")
        }
        origin = "http://127.0.0.1:\(port)"
    }

    /// SIGKILL (``ChildServer/stop()``): a child started from one of the
    /// test's Dispatch threads inherits its blocked SIGTERM, and Python's
    /// http.server, which sets no handler of its own, would never see it.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
