import SwiftSyntax

/// One stored property of a `@Generable` struct, as the expansion uses it.
struct StoredProperty {
    /// The name as it appears in code (backticks kept, e.g. `` `default` ``).
    let name: String
    /// The name as a key of the generated content (backticks removed).
    let key: String
    /// The declared type.
    let type: TypeSpelling
    /// The property's `@Guide`, if it has one.
    let guide: GuideAttribute?
}

/// Finds the stored properties of a struct that the model generates, in
/// declaration order, and reports the ones the macro can't handle.
///
/// Skipped without a diagnostic: static and `lazy` properties, computed
/// properties (a getter or `get`/`set` accessors; `willSet`/`didSet` alone
/// still mean stored). Skipped with a warning: a `let` with an initial value,
/// which `init(_:)` can't assign. Errors: a stored property without a type
/// annotation, a tuple pattern, more than one `@Guide`.
struct PropertyAnalysis {
    /// The stored properties, in declaration order.
    private(set) var properties: [StoredProperty] = []

    init(members: MemberBlockItemListSyntax, log: inout DiagnosticLog) {
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            collect(variable, log: &log)
        }
    }

    private mutating func collect(_ variable: VariableDeclSyntax, log: inout DiagnosticLog) {
        let skipped: Set<TokenKind> = [.keyword(.static), .keyword(.class), .keyword(.lazy)]
        if variable.modifiers.contains(where: { skipped.contains($0.name.tokenKind) }) {
            return
        }
        let guideAttributes = GuideAttribute.guides(in: variable.attributes)
        let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let bindings = Array(variable.bindings)
        var guide: GuideAttribute?
        if let first = guideAttributes.first {
            guide = GuideAttribute(attribute: first, log: &log)
        }
        if guideAttributes.count > 1 {
            let name = bindings.first?.pattern.as(IdentifierPatternSyntax.self)
                .map { NameSpelling.key($0.identifier) }
            log.report(.multipleGuides(property: name ?? "_"), at: guideAttributes[1])
        }

        for (index, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, Self.isComputed(accessors) {
                continue
            }
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                log.report(.unsupportedPattern, at: binding.pattern)
                continue
            }
            let key = NameSpelling.key(pattern.identifier)
            if isConstant, binding.initializer != nil {
                log.report(.constantWithInitialValue(property: key), at: pattern)
                continue
            }
            guard let type = Self.declaredType(of: index, in: bindings) else {
                log.report(.missingTypeAnnotation(property: key), at: pattern)
                continue
            }
            properties.append(
                StoredProperty(
                    name: pattern.identifier.trimmedDescription,
                    key: key,
                    type: TypeSpelling(type),
                    guide: guide
                )
            )
        }
    }

    /// The type of the binding at `index`; in `var a, b: Int` the type of `a`
    /// is written on `b`.
    private static func declaredType(of index: Int, in bindings: [PatternBindingSyntax]) -> TypeSyntax? {
        if let type = bindings[index].typeAnnotation?.type {
            return type
        }
        guard bindings[index].initializer == nil else { return nil }
        for later in bindings[(index + 1)...] {
            if let type = later.typeAnnotation?.type {
                return type
            }
            if later.initializer != nil {
                return nil
            }
        }
        return nil
    }

    /// Whether an accessor block makes the property computed. Observers
    /// (`willSet`/`didSet`) alone leave it stored.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind != .keyword(.willSet) && kind != .keyword(.didSet)
            }
        }
    }
}
