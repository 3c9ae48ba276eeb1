import Foundation

/// What `fm` keeps between runs, in the XDG folders (the library keeps its
/// adapters under `XDG_DATA_HOME` the same way):
///
/// - the default model `fm chat --set-default-model` stores:
///   `${XDG_CONFIG_HOME:-~/.config}/swift-foundation-models/fm.json`;
/// - `fm chat`'s saved sessions, which `--resume NAME` and `--continue` read:
///   `${XDG_DATA_HOME:-~/.local/share}/swift-foundation-models/fm-sessions/NAME.json`.
///
/// Apple's fm keeps its sessions in `~/.fm/sessions/`; a Linux tool keeps
/// configuration and data where the user's other tools keep theirs.
struct Settings: Codable, Equatable {
    /// `system`, or a GGUF file's path.
    var defaultModel: String?

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    private static func folder(_ variable: String, _ fallback: String) -> URL {
        let base =
            environment[variable].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/" + fallback
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("swift-foundation-models", isDirectory: true)
    }

    static var file: URL { folder("XDG_CONFIG_HOME", ".config").appendingPathComponent("fm.json") }

    static var sessionsFolder: URL { folder("XDG_DATA_HOME", ".local/share").appendingPathComponent("fm-sessions", isDirectory: true) }

    /// The stored settings; none when the file is missing. A file that does
    /// not read is an error: silently ignoring it would run another model
    /// than the one the user chose.
    static func load() throws -> Settings {
        guard let data = try? Data(contentsOf: file) else { return Settings() }
        do {
            return try JSONDecoder().decode(Settings.self, from: data)
        } catch {
            throw SettingsError(description: "\(file.path) is not fm's settings (\(error)); fix or remove it")
        }
    }

    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: Self.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(self).write(to: Self.file, options: .atomic)
        } catch {
            throw SettingsError(description: "cannot save fm's settings to \(Self.file.path): \(error.localizedDescription)")
        }
    }

    /// The file of the session called `name`: a path as given when it names
    /// one (it has a `/` or ends in `.json`), else `NAME.json` in the
    /// sessions folder.
    static func sessionFile(_ name: String) -> URL {
        if name.contains("/") || name.hasSuffix(".json") { return URL(fileURLWithPath: name) }
        return sessionsFolder.appendingPathComponent(name + ".json")
    }

    /// The session saved last (`fm chat --continue`).
    static func latestSession() -> URL? {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: sessionsFolder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        return files.filter { $0.pathExtension == "json" }.max { a, b in
            let date = { (url: URL) in (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast }
            return date(a) < date(b)
        }
    }

    /// A new session's name: the time it started, sortable.
    static func newSessionName() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        return formatter.string(from: Date())
    }
}

struct SettingsError: LocalizedError, CustomStringConvertible {
    var description: String
    var errorDescription: String? { description }
}
