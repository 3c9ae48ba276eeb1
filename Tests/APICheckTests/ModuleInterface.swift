// Emits the FoundationModels module's own textual interface
// (`.swiftinterface`) by compiling its sources with `swiftc -emit-module`,
// against the dependency modules `swift build` already produced.

import Foundation
import TestSupport

enum ModuleInterface {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var packageRoot: URL { TestMachine.packageRoot }

    /// The name SwiftPM gives the root package (its directory name, as an
    /// identifier): `package` declarations of the dependency modules are
    /// visible only under the same name.
    static var packageName: String {
        String(packageRoot.lastPathComponent.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The directory of the build products this test runs from: the test
    /// bundle lives there, next to `Modules/`.
    static func buildProducts() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent())
        }
        let arguments = CommandLine.arguments
        if let first = arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for candidate in candidates {
            var directory = candidate.resolvingSymlinksInPath()
            // The test binary may sit inside a bundle directory.
            for _ in 0..<4 {
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules/GuidedGeneration.swiftmodule").path) {
                    return directory
                }
                directory.deleteLastPathComponent()
            }
        }
        throw Failure(description: "no build products with Modules/GuidedGeneration.swiftmodule near \(candidates.map(\.path))")
    }

    /// The Swift sources of the FoundationModels target.
    static func sources() throws -> [String] {
        let root = packageRoot.appendingPathComponent("Sources/FoundationModels")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw Failure(description: "cannot list \(root.path)")
        }
        return enumerator.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The `-Xcc` flags that let the compiler load llama.cpp's headers (the
    /// `CLlama` module LlamaKit imports), from pkg-config as SwiftPM reads them.
    static func llamaFlags() throws -> [String] {
        var flags = ["-Xcc", "-fmodule-map-file=\(packageRoot.path)/Sources/CLlama/module.modulemap"]
        if let pkgConfig = which("pkg-config") {
            let result = try TestMachine.run([pkgConfig, "--cflags", "llama"])
            if result.status == 0 {
                for flag in result.standardOutput.split(whereSeparator: \.isWhitespace) {
                    flags += ["-Xcc", String(flag)]
                }
            }
        }
        return flags
    }

    /// The `-Xcc -fmodule-map-file` flags of the C modules the package's
    /// dependencies build (SwiftNIO's and swift-atomics' shims, under
    /// AsyncHTTPClient): the maps SwiftPM generates beside their build
    /// products, and those the packages ship in their `include/` folders.
    static func dependencyModuleMapFlags(_ products: URL) -> [String] {
        let files = FileManager.default
        var maps: [String] = []
        for entry in (try? files.contentsOfDirectory(atPath: products.path)) ?? [] where entry.hasSuffix(".build") && !entry.hasSuffix("-tool.build")
        {
            let map = products.appendingPathComponent(entry).appendingPathComponent("module.modulemap").path
            if files.fileExists(atPath: map) { maps.append(map) }
        }
        let checkouts = products.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        for package in (try? files.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            for target in (try? files.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let map = sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap").path
                if files.fileExists(atPath: map) { maps.append(map) }
            }
        }
        return maps.sorted().flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    /// The interface, emitted once for the tests that read it, as an app
    /// builds the module by default: with the `LlamaCpp` trait on, so a
    /// public declaration behind `#if LlamaCpp` is checked too.
    static let emitted: Result<String, any Error> = Result { try emit(defining: ["LlamaCpp"]) }

    /// The interface with the `DataAttachments` trait on as well, as a
    /// package that turns it on compiles it (Apple 27.2's additions).
    static let emittedWithDataAttachments: Result<String, any Error> = Result { try emit(defining: ["LlamaCpp", "DataAttachments"]) }

    /// The module's textual interface, freshly emitted, with the compilation
    /// conditions `conditions` set (a package trait's name sets its own).
    static func emit(defining conditions: [String] = []) throws -> String {
        guard let swiftc = which("swiftc") else { throw Failure(description: "swiftc is not on PATH") }
        let products = try buildProducts()
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("fm-api-check-\(ProcessInfo.processInfo.processIdentifier)-\(conditions.joined(separator: "-"))")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let interface = output.appendingPathComponent("FoundationModels.swiftinterface")
        var arguments = [
            "-emit-module",
            "-module-name", "FoundationModels",
            "-package-name", packageName,
            "-parse-as-library",
            "-swift-version", "6",
            "-enable-library-evolution",
            "-emit-module-interface-path", interface.path,
            "-emit-module-path", output.appendingPathComponent("FoundationModels.swiftmodule").path,
            "-I", products.appendingPathComponent("Modules").path,
            "-suppress-warnings",
            "-no-verify-emitted-module-interface",
        ]
        arguments += conditions.flatMap { ["-D", $0] }
        arguments += try llamaFlags()
        arguments += dependencyModuleMapFlags(products)
        arguments += try sources()
        let result = try TestMachine.run([swiftc] + arguments)
        guard result.status == 0, let text = try? String(contentsOf: interface, encoding: .utf8) else {
            throw Failure(description: "swiftc could not emit the interface (status \(result.status)):\n\(result.standardOutput.suffix(4000))")
        }
        return text
    }
}
