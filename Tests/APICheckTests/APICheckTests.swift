// The module's public API compared, declaration by declaration, with Apple's
// FoundationModels interface as apps compile against it: Xcode 27 beta 5
// (module 2.0.68.1.401, the shape of 27.0 as shipped),
// apple27b5-declarations.tsv, 1,229 public declarations with availability,
// bucket, container, kind and normalized signature. Beta 1's list
// (apple27-declarations.tsv) stays as history: its coverage is printed, not
// required. The module's own interface is emitted by compiling
// its sources (ModuleInterface.swift) and read into the same normalized form
// (InterfaceReader.swift).
//
// Every portable declaration ("main" bucket) must be in the module verbatim,
// or be listed in deviations.tsv: `superseded` when Apple's newer
// documentation (27.1, 27.2) changed or removed it (the replacement the
// module declares instead is checked to exist; docs/API_DECISIONS.md has the
// table), `deliberate` when the module differs on purpose. A declaration
// that goes missing fails the test, and so does a listed deviation that has
// started to match or names no declaration of the list. The test prints the
// coverage per availability version, exact and in the newest shape, and
// requires 99% in the newest shape.

import Foundation
import Testing

/// One row of the reference list.
struct ReferenceDeclaration {
    var availability: String
    var deprecated: String
    var bucket: String
    var kind: String
    var declaration: Declaration
}

enum Reference {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func rows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The list the module is held to.
    static let current = "apple27b5-declarations.tsv"
    /// Beta 1's list, kept as history.
    static let beta1 = "apple27-declarations.tsv"

    /// Apple's declarations, with where-clause requirements in the order the
    /// reader prints them.
    static func apple(_ list: String = current) throws -> [ReferenceDeclaration] {
        try rows(list).map { columns in
            var signature = columns[5]
            if columns[4] != "associatedtype" {
                let (head, requirements) = Syntax.splitTrailingWhere(signature)
                if !requirements.isEmpty { signature = head + " where " + Syntax.sortedRequirements(requirements) }
            }
            return ReferenceDeclaration(
                availability: columns[0],
                deprecated: columns[1],
                bucket: columns[2],
                kind: columns[4],
                declaration: Declaration(container: columns[3], signature: Syntax.collapseSpaces(signature))
            )
        }
    }

    /// A reference declaration this module does not have verbatim, and why.
    struct Deviation {
        /// `superseded`: a later beta changed or removed it and the module
        /// follows the newer shape (docs/API_DECISIONS.md); `deliberate`:
        /// the module differs on purpose.
        var kind: String
        /// The declaration the module has instead (`-` when removed).
        var replacement: Declaration?
        var reason: String
    }

    static func normalized(_ signature: String) -> String {
        let (head, requirements) = Syntax.splitTrailingWhere(signature)
        guard !requirements.isEmpty, !signature.hasPrefix("associatedtype") else { return Syntax.collapseSpaces(signature) }
        return Syntax.collapseSpaces(head + " where " + Syntax.sortedRequirements(requirements))
    }

    /// Declarations that differ, by reference declaration.
    static func deviations() throws -> [Declaration: Deviation] {
        var result: [Declaration: Deviation] = [:]
        for columns in try rows("deviations.tsv") where columns.count >= 5 {
            let replacement: Declaration?
            if columns[3] == "-" {
                replacement = nil
            } else {
                let parts = columns[3].components(separatedBy: " | ")
                replacement = Declaration(container: parts[0], signature: normalized(parts.dropFirst().joined(separator: " | ")))
            }
            result[Declaration(container: columns[0], signature: normalized(columns[1]))] = Deviation(
                kind: columns[2], replacement: replacement, reason: columns[4]
            )
        }
        return result
    }
}

@Suite("Apple's 27 API (Xcode 27 beta 5), declaration by declaration")
struct APICheckTests {
    struct Tally { var total = 0, exact = 0, superseded = 0, deliberate = 0 }

    @Test("every portable declaration is in the module exactly, or listed with a reason")
    func declarations() throws {
        let interface = try ModuleInterface.emitted.get()
        let ours = Set(InterfaceReader.declarations(in: interface))
        // FM_API_DUMP=FILE writes the module's normalized declarations, one
        // per line as `container | signature`, to compare by hand.
        if let dump = ProcessInfo.processInfo.environment["FM_API_DUMP"] {
            try ours.map(\.description).sorted().joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
        }
        let reference = try Reference.apple()
        let deviations = try Reference.deviations()

        var missing: [ReferenceDeclaration] = []
        var staleDeviations: [Declaration] = []
        var missingReplacements: [(Declaration, Declaration)] = []
        var tallies: [String: Tally] = [:]
        var otherBuckets: [String: Tally] = [:]
        let listed = Set(reference.map(\.declaration))
        let unknownDeviations = deviations.keys.filter { !listed.contains($0) }

        for row in reference {
            let found = ours.contains(row.declaration)
            guard row.bucket == "main" else {
                otherBuckets[row.bucket, default: Tally()].total += 1
                if found { otherBuckets[row.bucket, default: Tally()].exact += 1 }
                continue
            }
            tallies[row.availability, default: Tally()].total += 1
            let deviation = deviations[row.declaration]
            if found {
                tallies[row.availability, default: Tally()].exact += 1
                if deviation != nil { staleDeviations.append(row.declaration) }
            } else if let deviation {
                if let replacement = deviation.replacement, !ours.contains(replacement) {
                    missingReplacements.append((row.declaration, replacement))
                }
                if deviation.kind == "superseded" {
                    tallies[row.availability, default: Tally()].superseded += 1
                } else {
                    tallies[row.availability, default: Tally()].deliberate += 1
                }
            } else {
                missing.append(row)
            }
        }

        var report = [
            "API coverage against Apple's Xcode 27 beta 5 interface (portable declarations):",
            "  version  exact | in Apple's newest documented shape | deliberate",
        ]
        var total = Tally()
        for version in tallies.keys.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }) {
            let tally = tallies[version]!
            total.total += tally.total
            total.exact += tally.exact
            total.superseded += tally.superseded
            total.deliberate += tally.deliberate
            report.append(Self.line(version, tally))
        }
        report.append(Self.line("all", total))
        for (bucket, tally) in otherBuckets.sorted(by: { $0.key < $1.key }) {
            report.append("  (\(bucket): \(tally.exact) of \(tally.total) present; not required)")
        }
        let history = try Reference.apple(Reference.beta1).filter { $0.bucket == "main" }
        let historyExact = history.filter { ours.contains($0.declaration) }.count
        report.append("  (beta 1's list, history: \(historyExact) of \(history.count) exact)")
        print(report.joined(separator: "\n"))

        for row in missing {
            Issue.record("missing or different, and not in deviations.tsv: \(row.availability) \(row.declaration)")
        }
        for declaration in staleDeviations {
            Issue.record("listed in deviations.tsv but now matches exactly (remove it): \(declaration)")
        }
        for declaration in unknownDeviations {
            Issue.record("listed in deviations.tsv but not a declaration of \(Reference.current) (remove it): \(declaration)")
        }
        for (declaration, replacement) in missingReplacements {
            Issue.record("\(declaration) is listed as replaced by \(replacement), which the module does not declare")
        }
        // The gate: every portable declaration in the shape Apple's newest
        // documentation gives it (beta 5 exactly, or its documented
        // replacement), for at least 99%.
        let share = Double(total.exact + total.superseded) / Double(max(total.total, 1))
        #expect(share >= 0.99, "coverage \(share) is below 99%")
    }

    /// An enum case beyond the shipped SDK's turns every exhaustive
    /// `switch` an app wrote against it into a compile error (a resilient
    /// SDK enum only warns about future cases). Newer documented cases go
    /// behind a package trait instead (docs/API_DECISIONS.md).
    @Test("Apple's enums have exactly the shipped SDK's cases")
    func noCasesBeyondTheSDK() throws {
        let ours = InterfaceReader.declarations(in: try ModuleInterface.emitted.get())
        let reference = try Reference.apple().filter { $0.kind == "case" }
        let enums = Set(reference.map(\.declaration.container))
        let known = Set(reference.map(\.declaration))
        let extra = ours.filter { enums.contains($0.container) && $0.signature.hasPrefix("case ") && !known.contains($0) }
        #expect(extra.isEmpty, "cases beyond \(Reference.current): \(extra)")
    }

    static func line(_ version: String, _ tally: Tally) -> String {
        func percent(_ count: Int) -> String {
            String(format: "%5.1f%%", 100 * Double(count) / Double(max(tally.total, 1)))
        }
        let newest = tally.exact + tally.superseded
        return
            "  \(version.padding(toLength: 7, withPad: " ", startingAt: 0))  \(tally.exact)/\(tally.total) (\(percent(tally.exact))) | \(newest)/\(tally.total) (\(percent(newest))) | \(tally.deliberate)"
    }
}
