import Foundation
import FoundationModelsKit
import Synchronization
import Testing

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(days: Double) { current.withLock { $0 += days * 86_400 } }
    var function: @Sendable () -> Date { { self.now } }
}

/// Counts calls from any task.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite("ResponseCache")
struct ResponseCacheTests {
    @Test func aHitIsServedUntilItExpires() async throws {
        let clock = TestClock()
        let cache = ResponseCache<String>(now: clock.function)
        let key = CacheKey("insight", "crate-1")
        await cache.store("first", for: key, expiry: .days(7))
        #expect(await cache.value(for: key) == "first")
        clock.advance(days: 6.9)
        #expect(await cache.value(for: key) == "first")
        clock.advance(days: 0.2)
        #expect(await cache.value(for: key) == nil)
        #expect(await cache.count == 0, "an expired entry is removed when looked up")
    }

    @Test func aChangedFingerprintMakesTheEntryStale() async throws {
        let cache = ResponseCache<Int>()
        let key = CacheKey("stats")
        await cache.store(1, for: key, fingerprint: Fingerprint("a", "b"))
        #expect(await cache.value(for: key, fingerprint: Fingerprint("a", "b")) == 1)
        #expect(await cache.value(for: key, fingerprint: Fingerprint("a", "c")) == nil)
        #expect(await cache.value(for: key, fingerprint: Fingerprint("a", "b")) == nil, "the stale entry is gone")
    }

    @Test func produceRunsOnlyOnAMissAndNilIsNotStored() async throws {
        let cache = ResponseCache<String>()
        let calls = Counter()
        let key = CacheKey("feature", "x")
        let produce: @Sendable () async throws -> String? = {
            calls.increment(); return "made"
        }
        #expect(try await cache.value(for: key, produce: produce) == "made")
        #expect(try await cache.value(for: key, produce: produce) == "made")
        #expect(calls.value == 1)

        let other = CacheKey("feature", "y")
        #expect(try await cache.value(for: other, produce: { nil }) == nil)
        #expect(await cache.entry(for: other) == nil)
    }

    @Test func concurrentMissesOfOneKeyShareOneGeneration() async throws {
        let cache = ResponseCache<String>()
        let calls = Counter()
        let key = CacheKey("feature", "slow")
        let results = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    try await cache.value(for: key) {
                        calls.increment()
                        try await Task.sleep(for: .milliseconds(50))
                        return "once"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: "once", count: 5))
        #expect(calls.value == 1)
    }

    @Test func aThrownErrorIsNotStored() async throws {
        struct Failed: Error {}
        let cache = ResponseCache<String>()
        let key = CacheKey("feature")
        await #expect(throws: Failed.self) { try await cache.value(for: key) { throw Failed() } }
        #expect(try await cache.value(for: key) { "later" } == "later")
    }

    @Test func entriesPersistInTheFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)/cache.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let clock = TestClock()
        let key = CacheKey("recommendations")
        do {
            let cache = ResponseCache<[String]>(file: file, now: clock.function)
            await cache.store(["a", "b"], for: key, expiry: .days(1), fingerprint: Fingerprint(unordered: ["2", "1"]))
        }
        let reopened = ResponseCache<[String]>(file: file, now: clock.function)
        #expect(await reopened.value(for: key, fingerprint: Fingerprint(unordered: ["1", "2"])) == ["a", "b"])
        clock.advance(days: 1.01)
        #expect(await reopened.value(for: key, fingerprint: Fingerprint(unordered: ["1", "2"])) == nil)
        // The file holds the feature's name, never the data behind the key.
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("\"1\""))
    }

    @Test func anUnreadableFileStartsEmpty() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("not json".utf8).write(to: file)
        let cache = ResponseCache<String>(file: file)
        #expect(await cache.count == 0)
        await cache.store("fresh", for: CacheKey("k"))
        #expect(await ResponseCache<String>(file: file).value(for: CacheKey("k")) == "fresh")
    }
}

@Suite("Fingerprint and CacheKey")
struct FingerprintTests {
    @Test func stableAndOrderAware() {
        // The digest is fixed: a cache written by one process is read by the next.
        #expect(Fingerprint([String]()).hex == "cbf29ce484222325")
        #expect(Fingerprint("a").hex.count == 16)
        #expect(Fingerprint("ab", "c") != Fingerprint("a", "bc"))
        #expect(Fingerprint("a", "b") != Fingerprint("b", "a"))
        #expect(Fingerprint(unordered: ["a", "b"]) == Fingerprint(unordered: ["b", "a"]))
    }

    @Test func keysNameTheFeatureNotTheData() {
        let key = CacheKey("albumInsight", "Miles Davis", "Kind of Blue")
        #expect(key.rawValue.hasPrefix("albumInsight:"))
        #expect(!key.rawValue.contains("Miles"))
        #expect(key != CacheKey("albumInsight", "Miles Davis", "Kind of Blue (mono)"))
        #expect(CacheKey("recommendations").rawValue == "recommendations")
    }
}
