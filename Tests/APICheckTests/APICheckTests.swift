// The module's public API compared, declaration by declaration, with Apple's
// macOS 27 (beta 1) FoundationModels interface: apple27-declarations.tsv,
// 1,220 public declarations with availability, bucket, container, kind and
// normalized signature. Every portable declaration ("main" bucket) must be
// in the module exactly, or be listed in deviations.tsv with the reason it
// differs (mostly: later betas changed the shape; see docs/API_DECISIONS.md).
// The test prints the coverage per availability version.

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

    /// Apple's declarations, with where-clause requirements in the order the
    /// reader prints them.
    static func apple() throws -> [ReferenceDeclaration] {
        try rows("apple27-declarations.tsv").map { columns in
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

    /// Declarations that deliberately differ, each with its reason.
    static func deviations() throws -> [Declaration: String] {
        var result: [Declaration: String] = [:]
        for columns in try rows("deviations.tsv") where columns.count >= 3 {
            var signature = columns[1]
            let (head, requirements) = Syntax.splitTrailingWhere(signature)
            if !requirements.isEmpty, !signature.hasPrefix("associatedtype") {
                signature = head + " where " + Syntax.sortedRequirements(requirements)
            }
            result[Declaration(container: columns[0], signature: Syntax.collapseSpaces(signature))] = columns[2]
        }
        return result
    }
}

@Suite("Apple's 27 API, declaration by declaration")
struct APICheckTests {
    @Test("every portable declaration is in the module exactly, or listed with a reason")
    func declarations() throws {
        let interface = try ModuleInterface.emit()
        let ours = Set(InterfaceReader.declarations(in: interface))
        let reference = try Reference.apple()
        let deviations = try Reference.deviations()

        var missing: [ReferenceDeclaration] = []
        var staleDeviations: [Declaration] = []
        struct Tally { var total = 0, exact = 0, deviating = 0 }
        var tallies: [String: Tally] = [:]
        var otherBuckets: [String: Tally] = [:]

        for row in reference {
            let found = ours.contains(row.declaration)
            guard row.bucket == "main" else {
                otherBuckets[row.bucket, default: Tally()].total += 1
                if found { otherBuckets[row.bucket, default: Tally()].exact += 1 }
                continue
            }
            tallies[row.availability, default: Tally()].total += 1
            if found {
                tallies[row.availability, default: Tally()].exact += 1
                if deviations[row.declaration] != nil { staleDeviations.append(row.declaration) }
            } else if deviations[row.declaration] != nil {
                tallies[row.availability, default: Tally()].deviating += 1
            } else {
                missing.append(row)
            }
        }

        var report = ["API coverage against Apple's macOS 27 beta 1 interface (portable declarations):"]
        var total = Tally()
        for version in tallies.keys.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }) {
            let tally = tallies[version]!
            total.total += tally.total
            total.exact += tally.exact
            total.deviating += tally.deviating
            report.append(Self.line(version, tally.exact, tally.deviating, tally.total))
        }
        report.append(Self.line("all", total.exact, total.deviating, total.total))
        for (bucket, tally) in otherBuckets.sorted(by: { $0.key < $1.key }) {
            report.append("  (\(bucket): \(tally.exact) of \(tally.total) present; not required)")
        }
        print(report.joined(separator: "\n"))

        for row in missing {
            Issue.record("missing or different: \(row.availability) \(row.declaration)")
        }
        for declaration in staleDeviations {
            Issue.record("listed in deviations.tsv but now matches exactly (remove it): \(declaration)")
        }
        let share = Double(total.exact) / Double(max(total.total, 1))
        #expect(share >= 0.95, "exact coverage \(share) is below 95%")
    }

    static func line(_ version: String, _ exact: Int, _ deviating: Int, _ total: Int) -> String {
        let percent = String(format: "%.1f", 100 * Double(exact) / Double(max(total, 1)))
        return "  \(version.padding(toLength: 5, withPad: " ", startingAt: 0)) \(exact)/\(total) exact (\(percent)%), \(deviating) deliberate deviations"
    }
}
