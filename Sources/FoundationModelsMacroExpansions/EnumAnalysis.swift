import SwiftSyntax

/// One case of a `@Generable` enum.
struct EnumCase {
    /// One associated value of a case.
    struct Payload {
        /// The argument label in code (`x` in `point(x: Int)`), if labeled.
        let label: String?
        /// The key in the generated content: the label, `value` for a lone
        /// unlabeled value, or `_0`, `_1`, … by position.
        let key: String
        let type: TypeSpelling
    }

    /// The case name as it appears in code (backticks kept).
    let name: String
    /// The case name as the generated string / discriminator.
    let key: String
    let payloads: [Payload]
}

/// Collects the cases of an enum in declaration order and checks them:
/// at least one case, no two cases with the same base name, and no
/// associated-value key that collides with `"case"` or another key.
struct EnumAnalysis {
    private(set) var cases: [EnumCase] = []

    /// Whether any case has associated values (the enum is a tagged choice).
    var isTagged: Bool { cases.contains { !$0.payloads.isEmpty } }

    init(declaration: EnumDeclSyntax, log: inout DiagnosticLog) {
        var seen: Set<String> = []
        for member in declaration.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let key = NameSpelling.key(element.name)
                guard seen.insert(key).inserted else {
                    log.report(.duplicateCaseName(name: key), at: element.name)
                    continue
                }
                let payloads = Self.payloads(of: element, caseKey: key, log: &log)
                cases.append(EnumCase(name: element.name.trimmedDescription, key: key, payloads: payloads))
            }
        }
        if cases.isEmpty && !log.hasErrors {
            log.report(.enumWithoutCases, at: declaration.name)
        }
    }

    private static func payloads(
        of element: EnumCaseElementSyntax,
        caseKey: String,
        log: inout DiagnosticLog
    ) -> [EnumCase.Payload] {
        guard let parameters = element.parameterClause?.parameters else { return [] }
        var keys: Set<String> = ["case"]
        var result: [EnumCase.Payload] = []
        for (position, parameter) in parameters.enumerated() {
            var label: String?
            if let firstName = parameter.firstName, firstName.tokenKind != .wildcard {
                label = NameSpelling.key(firstName)
            }
            let key = label ?? (parameters.count == 1 ? "value" : "_\(position)")
            guard keys.insert(key).inserted else {
                log.report(.duplicatePayloadKey(caseName: caseKey, key: key), at: parameter)
                continue
            }
            let codeLabel = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.trimmedDescription }
            result.append(EnumCase.Payload(label: codeLabel, key: key, type: TypeSpelling(parameter.type)))
        }
        return result
    }
}
