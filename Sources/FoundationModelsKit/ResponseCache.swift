import Foundation
import Logging

/// Where a cached answer stops being valid by age.
public struct CacheExpiry: Sendable, Hashable, Codable {
    /// Seconds an entry lives after it is stored; `nil`: until its key or
    /// fingerprint changes.
    public var lifetime: Double?

    /// Valid until the key or the fingerprint changes.
    public static let never = CacheExpiry(lifetime: nil)

    /// Valid for `seconds` after it was stored.
    public static func after(seconds: Double) -> CacheExpiry { CacheExpiry(lifetime: seconds) }

    /// Valid for `days` days (of 24 hours) after it was stored.
    public static func days(_ days: Double) -> CacheExpiry { CacheExpiry(lifetime: days * 86_400) }
}

/// What a cache entry is filed under: a feature's name and the identity of
/// what it was asked about (an album, a crate, the whole collection).
public struct CacheKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// `feature` and a fingerprint of `parts`: the key names the feature in
    /// clear (so a cache file can be read) but never the user's data.
    public init(_ feature: String, _ parts: String...) {
        rawValue = parts.isEmpty ? feature : "\(feature):\(Fingerprint(parts).hex)"
    }

    /// `feature` and a fingerprint already taken.
    public init(_ feature: String, _ fingerprint: Fingerprint) {
        rawValue = "\(feature):\(fingerprint.hex)"
    }

    public var description: String { rawValue }
}

/// Generated answers kept until they expire or what they depend on changes.
///
/// On-device generation takes seconds; an insight about a record crate or a
/// list of recommendations stays good until the data behind it changes, so
/// an app answers from the cache and generates only on a miss. An entry is
/// found by its ``CacheKey`` and is a hit only while
/// - it is younger than its ``CacheExpiry``, and
/// - the ``Fingerprint`` stored with it equals the one the caller passes
///   now (a digest of the statistics or the records the answer was made
///   from: when they change, the answer is stale whatever its age).
///
/// ``value(for:expiry:fingerprint:produce:)`` is the usual entry point: a
/// hit returns at once; a miss runs `produce` once — concurrent callers of
/// the same key share that one generation — and stores what it returns
/// (`nil`, a feature that chose not to answer, is not stored; a thrown
/// error is not stored either, so the next call tries again).
///
/// With a `file`, entries survive the process: they are read when the
/// cache is created and written (atomically) after every change; a file
/// that cannot be read starts an empty cache rather than failing the app.
public actor ResponseCache<Value: Codable & Sendable> {
    /// One stored answer.
    public struct Entry: Codable, Sendable {
        public var value: Value
        public var stored: Date
        public var expires: Date?
        public var fingerprint: Fingerprint?
    }

    private var entries: [String: Entry]
    private var inFlight: [String: Task<Value?, any Error>] = [:]
    private let file: URL?
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - file: where entries persist (JSON), or `nil` for memory only.
    ///   - now: the clock (tests pass their own).
    public init(file: URL? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.file = file
        self.now = now
        entries = [:]
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            entries = try decoder.decode([String: Entry].self, from: Data(contentsOf: file))
        } catch {
            Self.logger.warning("ignoring the unreadable cache file \(file.path): \(error)")
        }
    }

    /// The valid entry under `key`, or `nil`: missing, expired, or stored
    /// with another fingerprint (a stale entry is removed).
    public func value(for key: CacheKey, fingerprint: Fingerprint? = nil) -> Value? {
        guard let entry = entries[key.rawValue] else { return nil }
        if let expires = entry.expires, expires <= now() {
            remove(key)
            return nil
        }
        if entry.fingerprint != fingerprint {
            remove(key)
            return nil
        }
        return entry.value
    }

    /// Stores `value` under `key` until `expiry`, valid while the
    /// caller's fingerprint stays `fingerprint`.
    public func store(_ value: Value, for key: CacheKey, expiry: CacheExpiry = .never, fingerprint: Fingerprint? = nil) {
        let stored = now()
        entries[key.rawValue] = Entry(
            value: value,
            stored: stored,
            expires: expiry.lifetime.map { stored.addingTimeInterval($0) },
            fingerprint: fingerprint
        )
        persist()
    }

    /// The cached answer, or the one `produce` makes now (stored when it is
    /// not `nil`). Concurrent calls for one key run `produce` once.
    public func value(
        for key: CacheKey,
        expiry: CacheExpiry = .never,
        fingerprint: Fingerprint? = nil,
        produce: @escaping @Sendable () async throws -> Value?
    ) async throws -> Value? {
        if let hit = value(for: key, fingerprint: fingerprint) { return hit }
        if let running = inFlight[key.rawValue] { return try await running.value }
        let task = Task { try await produce() }
        inFlight[key.rawValue] = task
        defer { inFlight[key.rawValue] = nil }
        let produced = try await task.value
        if let produced { store(produced, for: key, expiry: expiry, fingerprint: fingerprint) }
        return produced
    }

    /// The entry under `key` as stored (expired or not), for inspection.
    public func entry(for key: CacheKey) -> Entry? { entries[key.rawValue] }

    /// Forgets the entry under `key`.
    public func remove(_ key: CacheKey) {
        if entries.removeValue(forKey: key.rawValue) != nil { persist() }
    }

    /// Forgets every entry.
    public func removeAll() {
        entries.removeAll()
        persist()
    }

    /// How many entries are stored (expired ones included until they are looked up).
    public var count: Int { entries.count }

    private func persist() {
        guard let file else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let data = try encoder.encode(entries)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            // The answers are still served from memory; only persistence is lost.
            Self.logger.warning("cannot write the cache file \(file.path): \(error)")
        }
    }

    private static var logger: Logger { Logger(label: "FoundationModelsKit.ResponseCache") }
}
