// The module's public declarations that Apple's lists do not have: the
// package's additions (configuration, the server models, guided-generation
// extras, …), inventoried in additions.tsv with the area each belongs to.
// A public declaration is in Apple's beta 5 list (apple27b5-declarations.tsv,
// any bucket), in its 27.2 list (apple27.2-declarations.tsv, under the
// DataAttachments trait), a replacement deviations.tsv names, or a row of
// additions.tsv; anything else fails the test, and so does a row of
// additions.tsv the module no longer declares. The module is read as the
// other API checks read it (ModuleInterface, InterfaceReader), with the
// trait's condition and without it, so an addition made under the trait is
// listed too. docs/API_DECISIONS.md, "Additions beyond Apple's API".
//
// FM_API_ADDITIONS=FILE writes the unlisted declarations as rows of the
// list (area `?`), to fill in and paste.

import Foundation
import Testing

@Suite("Public declarations beyond Apple's API, inventoried (additions.tsv)")
struct APIAdditionsTests {
    static let list = "additions.tsv"

    struct Addition {
        var area: String
        var declaration: Declaration
    }

    /// additions.tsv: `area`, `container`, `signature`, one declaration a row.
    static func listed() throws -> [Addition] {
        try Reference.rows(list).filter { !$0.allSatisfy(\.isEmpty) }.map { columns in
            Addition(
                area: columns[0],
                declaration: Declaration(
                    container: columns.count > 1 ? columns[1] : "",
                    signature: Reference.normalized(columns.count > 2 ? columns[2] : "")
                )
            )
        }
    }

    @Test("every public declaration is Apple's or listed in additions.tsv, and every listed one is declared")
    func inventory() throws {
        let off = Set(InterfaceReader.declarations(in: try ModuleInterface.emitted.get()))
        let on = Set(InterfaceReader.declarations(in: try ModuleInterface.emittedWithDataAttachments.get()))
        let apple = Set(try Reference.apple().map(\.declaration) + Reference.apple(APICheck27_2Tests.list).map(\.declaration))
        let replacements = Set(try Reference.deviations().values.compactMap(\.replacement))
        let additions = off.union(on).subtracting(apple).subtracting(replacements)

        let rows = try Self.listed()
        let listed = Set(rows.map(\.declaration))
        let unlisted = additions.subtracting(listed).sorted { $0.description < $1.description }
        if let file = ProcessInfo.processInfo.environment["FM_API_ADDITIONS"] {
            try unlisted.map { "?\t\($0.container)\t\($0.signature)\n" }.joined()
                .write(toFile: file, atomically: true, encoding: .utf8)
        }

        var areas: [String: Int] = [:]
        for row in rows { areas[row.area, default: 0] += 1 }
        print(
            "Public declarations beyond Apple's lists: \(rows.count) in \(Self.list) ("
                + areas.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")

        for declaration in unlisted {
            Issue.record("public, and neither Apple's nor in \(Self.list) (add it to \(Self.list) or make it package): \(declaration)")
        }
        for row in rows where !additions.contains(row.declaration) {
            let why =
                apple.contains(row.declaration) || replacements.contains(row.declaration)
                ? "is Apple's (or a listed deviation's replacement)" : "is no longer declared"
            Issue.record("listed in \(Self.list) but \(why) (remove it): \(row.declaration)")
        }
        var seen: Set<Declaration> = []
        for row in rows {
            if !seen.insert(row.declaration).inserted { Issue.record("listed twice in \(Self.list): \(row.declaration)") }
            if row.area.isEmpty || row.area == "?" { Issue.record("no area in \(Self.list): \(row.declaration)") }
        }
    }
}
