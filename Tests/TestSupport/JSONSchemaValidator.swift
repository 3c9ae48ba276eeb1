import Foundation

/// A small, independent JSON Schema validator used as a test oracle.
///
/// In TestSupport because two test targets judge answers with it: the
/// library's (guided generation, the on-device model) and fm's (what
/// `fm respond --schema` prints).
///
/// It implements a subset of JSON Schema draft 2020-12, written from the
/// specification and sharing no code with the FoundationModels schema types.
///
/// Supported keywords: `type`, `properties`, `required`,
/// `additionalProperties`, `items`, `minItems`, `maxItems`, `enum`, `const`,
/// `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
/// `minLength`, `maxLength`, `anyOf`, `oneOf`, `allOf`, `$ref` (same-document
/// JSON-pointer fragments such as `#` and `#/$defs/Name`) and `$defs`.
/// Boolean schemas (`true` / `false`) are accepted anywhere a schema is.
///
/// Ignored annotations: `title`, `description`, `x-order`, `$schema`, `$id`,
/// `$comment`, `default`, `examples`. Any other keyword makes `init` throw
/// ``SchemaError/unsupportedKeyword(_:location:)``, so a test can never pass
/// because a constraint was silently ignored.
///
/// Design choices:
/// - JSON is parsed by the small strict parser in this file rather than
///   `JSONSerialization`, because on Linux `JSONSerialization` yields
///   `NSNumber` for both booleans and numbers. The parser keeps `true`/`false`
///   distinct from `1`/`0`, rejects duplicate object keys, lone surrogates,
///   invalid UTF-8, non-finite numbers and trailing content.
/// - Numbers are held as `Double`. Per the spec, a number is an `integer` when
///   its value has no fractional part (`3.0` and `1e2` are integers), and
///   `enum`/`const` compare numbers by value (`1 == 1.0`).
/// - String lengths count Unicode code points, as the spec requires.
/// - `pattern` uses search semantics (the regex may match anywhere) via
///   `NSRegularExpression` (ICU syntax, which agrees with ECMA-262 for the
///   common constructs).
/// - `$ref` resolves against the root document only (`$id` is not used to
///   change the base URI). A `$ref` / `allOf` / `anyOf` / `oneOf` cycle that
///   never descends into the instance would loop forever, so `init` rejects it.
/// - Violation paths are JSON Pointers into the instance (`""` is the root,
///   `"/items/2/name"` a nested member). A missing `required` property is
///   reported at the object that lacks it, as the spec's output format does.
package struct JSONSchemaValidator: Sendable {

    /// One failed assertion.
    package struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// JSON Pointer to the offending instance location (`""` is the root).
        package let path: String
        /// The keyword that failed (`"type"`, `"required"`, ...; `""` when the
        /// instance is not JSON at all).
        package let keyword: String
        /// Absolute location of the failing keyword in the schema, e.g.
        /// `"#/$defs/Node/properties/name/type"`.
        package let schemaLocation: String
        /// A human-readable explanation.
        package let message: String

        package var description: String {
            "\(path.isEmpty ? "(root)" : path): \(message) [\(schemaLocation)]"
        }
    }

    /// Why a schema could not be used.
    package enum SchemaError: Error, Equatable, CustomStringConvertible {
        case invalidJSON(String)
        case notASchema(location: String)
        case unsupportedKeyword(String, location: String)
        case invalidKeywordValue(String, location: String, reason: String)
        case unresolvableReference(String, location: String)
        case referenceCycle([String])

        package var description: String {
            switch self {
            case .invalidJSON(let reason):
                "schema is not valid JSON: \(reason)"
            case .notASchema(let location):
                "value at \(location) is not a schema (expected an object or a boolean)"
            case .unsupportedKeyword(let keyword, let location):
                "unsupported keyword '\(keyword)' at \(location)"
            case .invalidKeywordValue(let keyword, let location, let reason):
                "invalid value for '\(keyword)' at \(location): \(reason)"
            case .unresolvableReference(let ref, let location):
                "$ref '\(ref)' at \(location) does not resolve to a schema"
            case .referenceCycle(let locations):
                "schema cycle that never descends into the instance: \(locations.joined(separator: " -> "))"
            }
        }
    }

    private let root: Node
    private let nodes: [String: Node]

    package init(schemaJSON: String) throws {
        try self.init(schema: Data(schemaJSON.utf8))
    }

    package init(schema: Data) throws {
        let document: JSON
        do {
            document = try JSON.parse(schema)
        } catch {
            throw SchemaError.invalidJSON("\(error)")
        }
        try self.init(document: document)
    }

    package init(document: JSON) throws {
        var compiler = Compiler()
        let root = try compiler.compile(document, at: "#")
        try compiler.checkReferences()
        self.root = root
        self.nodes = compiler.nodes
    }

    /// Validates a JSON document; an unparsable document yields one violation.
    package func validate(_ instance: Data) -> [Violation] {
        let value: JSON
        do {
            value = try JSON.parse(instance)
        } catch {
            return [Violation(path: "", keyword: "", schemaLocation: "", message: "instance is not valid JSON: \(error)")]
        }
        return validate(value: value)
    }

    package func validate(json: String) -> [Violation] {
        validate(Data(json.utf8))
    }

    package func validate(value: JSON) -> [Violation] {
        var violations: [Violation] = []
        check(value, against: root, at: "", into: &violations)
        return violations
    }

    package func isValid(json: String) -> Bool {
        validate(json: json).isEmpty
    }
}

// MARK: - Compiled schema

extension JSONSchemaValidator {
    enum JSONType: String, Sendable, CaseIterable {
        case string, integer, number, boolean, null, object, array

        func matches(_ value: JSON) -> Bool {
            switch (self, value) {
            case (.string, .string), (.boolean, .bool), (.null, .null),
                (.object, .object), (.array, .array), (.number, .number):
                true
            case (.integer, .number(let d)):
                d.rounded(.towardZero) == d
            default:
                false
            }
        }
    }

    struct Pattern: @unchecked Sendable {  // NSRegularExpression is immutable and thread-safe.
        let source: String
        let regex: NSRegularExpression

        func found(in string: String) -> Bool {
            let range = NSRange(string.startIndex..<string.endIndex, in: string)
            return regex.firstMatch(in: string, options: [], range: range) != nil
        }
    }

    struct Property: Sendable {
        let name: String
        let schema: Node
    }

    struct Keywords: Sendable {
        var types: [JSONType]?
        var properties: [Property] = []
        var required: [String] = []
        var additionalProperties: Node?
        var items: Node?
        var minItems: Int?
        var maxItems: Int?
        var enumValues: [JSON]?
        var constValue: JSON?
        var pattern: Pattern?
        var minimum: Double?
        var maximum: Double?
        var exclusiveMinimum: Double?
        var exclusiveMaximum: Double?
        var minLength: Int?
        var maxLength: Int?
        var anyOf: [Node]?
        var oneOf: [Node]?
        var allOf: [Node]?
        /// Resolved absolute location of the `$ref` target.
        var ref: String?
        var patternProperties: [(Pattern, Node)] = []
        var propertyNames: Node?
        var prefixItems: [Node]?
        var minProperties: Int?
        var maxProperties: Int?
        var dependentRequired: [(String, [String])] = []
        var not: Node?
        var multipleOf: Double?
        var format: String?
        var uniqueItems = false
    }

    final class Node: Sendable {
        enum Content: Sendable {
            case constant(Bool)
            case keywords(Keywords)
        }

        let location: String
        let content: Content

        init(location: String, content: Content) {
            self.location = location
            self.content = content
        }
    }

    private struct Compiler {
        static let annotations: Set<String> = [
            "title", "description", "x-order", "$schema", "$id", "id", "$comment", "default", "examples", "example",
            "readOnly", "writeOnly", "deprecated", "$anchor", "definitions",
        ]

        var nodes: [String: Node] = [:]
        private var references: [(ref: String, target: String, location: String)] = []

        mutating func compile(_ json: JSON, at location: String) throws -> Node {
            let object: JSON.Object
            switch json {
            case .bool(let allowed):
                return register(Node(location: location, content: .constant(allowed)))
            case .object(let o):
                object = o
            default:
                throw SchemaError.notASchema(location: location)
            }

            var k = Keywords()
            for key in object.keys {
                let value = object[key]!
                let here = location + "/" + JSON.escapePointerToken(key)
                func invalid(_ reason: String) -> SchemaError {
                    .invalidKeywordValue(key, location: location, reason: reason)
                }
                switch key {
                case "type":
                    k.types = try parseTypes(value, invalid)
                case "properties":
                    guard case .object(let props) = value else { throw invalid("expected an object") }
                    for name in props.keys {
                        let sub = try compile(props[name]!, at: here + "/" + JSON.escapePointerToken(name))
                        k.properties.append(Property(name: name, schema: sub))
                    }
                case "required":
                    guard case .array(let names) = value else { throw invalid("expected an array of strings") }
                    var seen = Set<String>()
                    for name in names {
                        guard case .string(let s) = name else { throw invalid("expected an array of strings") }
                        guard seen.insert(s).inserted else { throw invalid("duplicate name '\(s)'") }
                        k.required.append(s)
                    }
                case "additionalProperties":
                    k.additionalProperties = try compile(value, at: here)
                case "items":
                    if case .array = value {
                        // Drafts 4 to 2019-09: a tuple; `additionalItems` is the rest.
                        k.prefixItems = try schemaArray(value, at: here, invalid)
                        if let rest = object["additionalItems"] {
                            k.items = try compile(rest, at: location + "/additionalItems")
                        }
                    } else {
                        k.items = try compile(value, at: here)
                    }
                case "additionalItems":
                    break  // read with the array form of `items`; alone it asserts nothing
                case "prefixItems":
                    k.prefixItems = try schemaArray(value, at: here, invalid)
                case "patternProperties":
                    guard case .object(let patterns) = value else { throw invalid("expected an object") }
                    for source in patterns.keys {
                        guard let regex = try? NSRegularExpression(pattern: source) else {
                            throw invalid("not a valid regular expression: \(source)")
                        }
                        k.patternProperties.append(
                            (Pattern(source: source, regex: regex), try compile(patterns[source]!, at: here + "/" + JSON.escapePointerToken(source))))
                    }
                case "propertyNames":
                    k.propertyNames = try compile(value, at: here)
                case "minProperties":
                    k.minProperties = try nonNegativeInteger(value, invalid)
                case "maxProperties":
                    k.maxProperties = try nonNegativeInteger(value, invalid)
                case "dependentRequired":
                    guard case .object(let entries) = value else { throw invalid("expected an object") }
                    for trigger in entries.keys {
                        guard case .array(let names) = entries[trigger]! else { throw invalid("expected arrays of names") }
                        k.dependentRequired.append((trigger, names.compactMap { if case .string(let n) = $0 { n } else { nil } }))
                    }
                case "not":
                    k.not = try compile(value, at: here)
                case "multipleOf":
                    k.multipleOf = try number(value, invalid)
                case "format":
                    guard case .string(let name) = value else { throw invalid("expected a string") }
                    k.format = name
                case "uniqueItems":
                    guard case .bool(let flag) = value else { throw invalid("expected a boolean") }
                    k.uniqueItems = flag
                case "definitions":
                    guard case .object(let defs) = value else { throw invalid("expected an object") }
                    for name in defs.keys {
                        _ = try compile(defs[name]!, at: here + "/" + JSON.escapePointerToken(name))
                    }
                case "minItems":
                    k.minItems = try nonNegativeInteger(value, invalid)
                case "maxItems":
                    k.maxItems = try nonNegativeInteger(value, invalid)
                case "minLength":
                    k.minLength = try nonNegativeInteger(value, invalid)
                case "maxLength":
                    k.maxLength = try nonNegativeInteger(value, invalid)
                case "enum":
                    guard case .array(let values) = value else { throw invalid("expected an array") }
                    k.enumValues = values
                case "const":
                    k.constValue = value
                case "pattern":
                    guard case .string(let source) = value else { throw invalid("expected a string") }
                    do {
                        k.pattern = Pattern(source: source, regex: try NSRegularExpression(pattern: source))
                    } catch {
                        throw invalid("not a valid regular expression: \(source)")
                    }
                case "minimum":
                    k.minimum = try number(value, invalid)
                case "maximum":
                    k.maximum = try number(value, invalid)
                case "exclusiveMinimum":
                    // Draft 4: a flag on `minimum`.
                    if case .bool(let flag) = value {
                        if flag, case .number(let bound)? = object["minimum"] { k.exclusiveMinimum = bound }
                    } else {
                        k.exclusiveMinimum = try number(value, invalid)
                    }
                case "exclusiveMaximum":
                    if case .bool(let flag) = value {
                        if flag, case .number(let bound)? = object["maximum"] { k.exclusiveMaximum = bound }
                    } else {
                        k.exclusiveMaximum = try number(value, invalid)
                    }
                case "anyOf":
                    k.anyOf = try schemaArray(value, at: here, invalid)
                case "oneOf":
                    k.oneOf = try schemaArray(value, at: here, invalid)
                case "allOf":
                    k.allOf = try schemaArray(value, at: here, invalid)
                case "$ref":
                    guard case .string(let ref) = value else { throw invalid("expected a string") }
                    let target = try resolve(ref, invalid)
                    k.ref = target
                    references.append((ref, target, location))
                case "$defs":
                    guard case .object(let defs) = value else { throw invalid("expected an object") }
                    for name in defs.keys {
                        _ = try compile(defs[name]!, at: here + "/" + JSON.escapePointerToken(name))
                    }
                default:
                    guard Self.annotations.contains(key) else {
                        throw SchemaError.unsupportedKeyword(key, location: location)
                    }
                }
            }
            return register(Node(location: location, content: .keywords(k)))
        }

        private mutating func register(_ node: Node) -> Node {
            nodes[node.location] = node
            return node
        }

        private func parseTypes(_ value: JSON, _ invalid: (String) -> SchemaError) throws -> [JSONType] {
            func one(_ v: JSON) throws -> JSONType {
                guard case .string(let name) = v else { throw invalid("expected a type name or an array of type names") }
                guard let type = JSONType(rawValue: name) else { throw invalid("unknown type '\(name)'") }
                return type
            }
            if case .array(let names) = value {
                guard !names.isEmpty else { throw invalid("the array of types must not be empty") }
                var types: [JSONType] = []
                for name in names {
                    let type = try one(name)
                    guard !types.contains(type) else { throw invalid("duplicate type '\(type.rawValue)'") }
                    types.append(type)
                }
                return types
            }
            return [try one(value)]
        }

        private func nonNegativeInteger(_ value: JSON, _ invalid: (String) -> SchemaError) throws -> Int {
            guard case .number(let d) = value, d >= 0, d.rounded(.towardZero) == d, d < 1e15 else {
                throw invalid("expected a non-negative integer")
            }
            return Int(d)
        }

        private func number(_ value: JSON, _ invalid: (String) -> SchemaError) throws -> Double {
            guard case .number(let d) = value else { throw invalid("expected a number") }
            return d
        }

        private mutating func schemaArray(_ value: JSON, at here: String, _ invalid: (String) -> SchemaError) throws -> [Node] {
            guard case .array(let schemas) = value, !schemas.isEmpty else {
                throw invalid("expected a non-empty array of schemas")
            }
            var nodes: [Node] = []
            for (index, schema) in schemas.enumerated() {
                nodes.append(try compile(schema, at: "\(here)/\(index)"))
            }
            return nodes
        }

        private func resolve(_ ref: String, _ invalid: (String) -> SchemaError) throws -> String {
            guard ref.hasPrefix("#") else {
                throw invalid("only same-document references ('#' or '#/...') are supported, got '\(ref)'")
            }
            guard let fragment = String(ref.dropFirst()).removingPercentEncoding else {
                throw invalid("malformed percent-encoding in '\(ref)'")
            }
            if fragment.isEmpty { return "#" }
            guard fragment.hasPrefix("/") else {
                throw invalid("anchor references are not supported, got '\(ref)'")
            }
            return "#" + fragment
        }

        func checkReferences() throws {
            for (ref, target, location) in references where nodes[target] == nil {
                throw SchemaError.unresolvableReference(ref, location: location)
            }
            // Edges that evaluate another schema against the *same* instance.
            func inPlace(_ node: Node) -> [Node] {
                guard case .keywords(let k) = node.content else { return [] }
                var next: [Node] = []
                if let target = k.ref { next.append(nodes[target]!) }
                next += k.allOf ?? []
                next += k.anyOf ?? []
                next += k.oneOf ?? []
                return next
            }
            var done = Set<String>()
            var stack: [String] = []
            var onStack = Set<String>()
            func visit(_ node: Node) throws {
                if done.contains(node.location) { return }
                if onStack.contains(node.location) {
                    let start = stack.firstIndex(of: node.location)!
                    throw SchemaError.referenceCycle(Array(stack[start...]) + [node.location])
                }
                stack.append(node.location)
                onStack.insert(node.location)
                for next in inPlace(node) { try visit(next) }
                stack.removeLast()
                onStack.remove(node.location)
                done.insert(node.location)
            }
            for location in nodes.keys.sorted() {
                try visit(nodes[location]!)
            }
        }
    }
}

// MARK: - Evaluation

extension JSONSchemaValidator {
    private func check(_ value: JSON, against node: Node, at path: String, into out: inout [Violation]) {
        let k: Keywords
        switch node.content {
        case .constant(true):
            return
        case .constant(false):
            out.append(
                Violation(
                    path: path, keyword: "false", schemaLocation: node.location,
                    message: "no value is allowed here (schema is false)"))
            return
        case .keywords(let keywords):
            k = keywords
        }

        func fail(_ keyword: String, _ message: String, at instancePath: String? = nil) {
            out.append(
                Violation(
                    path: instancePath ?? path, keyword: keyword,
                    schemaLocation: node.location + "/" + JSON.escapePointerToken(keyword),
                    message: message))
        }

        if let target = k.ref {
            check(value, against: nodes[target]!, at: path, into: &out)
        }

        if let types = k.types, !types.contains(where: { $0.matches(value) }) {
            let expected = types.map(\.rawValue).joined(separator: " or ")
            fail("type", "expected \(expected), got \(value.typeName)")
        }
        if let options = k.enumValues, !options.contains(value) {
            fail("enum", "\(value.brief) is not one of \(JSON.array(options).brief)")
        }
        if let constant = k.constValue, constant != value {
            fail("const", "expected \(constant.brief), got \(value.brief)")
        }

        switch value {
        case .number(let d):
            if let m = k.minimum, !(d >= m) { fail("minimum", "\(value.brief) is less than the minimum \(JSON.number(m).brief)") }
            if let m = k.maximum, !(d <= m) { fail("maximum", "\(value.brief) is greater than the maximum \(JSON.number(m).brief)") }
            if let m = k.exclusiveMinimum, !(d > m) { fail("exclusiveMinimum", "\(value.brief) is not greater than \(JSON.number(m).brief)") }
            if let m = k.exclusiveMaximum, !(d < m) { fail("exclusiveMaximum", "\(value.brief) is not less than \(JSON.number(m).brief)") }
            if let m = k.multipleOf, (d / m).rounded() != d / m { fail("multipleOf", "\(value.brief) is not a multiple of \(JSON.number(m).brief)") }

        case .string(let s):
            let length = s.unicodeScalars.count
            if let m = k.minLength, length < m { fail("minLength", "string has \(length) characters, fewer than the minimum \(m)") }
            if let m = k.maxLength, length > m { fail("maxLength", "string has \(length) characters, more than the maximum \(m)") }
            if let p = k.pattern, !p.found(in: s) { fail("pattern", "\(value.brief) does not match the pattern /\(p.source)/") }
            if let format = k.format, let valid = Formats.check(format, s), !valid { fail("format", "\(value.brief) is not a valid \(format)") }

        case .array(let elements):
            if let m = k.minItems, elements.count < m { fail("minItems", "array has \(elements.count) items, fewer than the minimum \(m)") }
            if let m = k.maxItems, elements.count > m { fail("maxItems", "array has \(elements.count) items, more than the maximum \(m)") }
            if k.uniqueItems {
                for (index, element) in elements.enumerated() where elements[..<index].contains(element) {
                    fail("uniqueItems", "item \(index) repeats an earlier item")
                }
            }
            let prefix = k.prefixItems ?? []
            for (index, element) in elements.enumerated() {
                if index < prefix.count {
                    check(element, against: prefix[index], at: "\(path)/\(index)", into: &out)
                } else if let items = k.items {
                    check(element, against: items, at: "\(path)/\(index)", into: &out)
                }
            }

        case .object(let object):
            for name in k.required where object[name] == nil {
                fail("required", "missing required property '\(name)'")
            }
            for property in k.properties {
                if let member = object[property.name] {
                    check(member, against: property.schema, at: path + "/" + JSON.escapePointerToken(property.name), into: &out)
                }
            }
            for (pattern, schema) in k.patternProperties {
                for name in object.keys where pattern.found(in: name) {
                    check(object[name]!, against: schema, at: path + "/" + JSON.escapePointerToken(name), into: &out)
                }
            }
            if let names = k.propertyNames {
                for name in object.keys {
                    check(.string(name), against: names, at: path + "/" + JSON.escapePointerToken(name), into: &out)
                }
            }
            if let m = k.minProperties, object.keys.count < m { fail("minProperties", "object has fewer than \(m) properties") }
            if let m = k.maxProperties, object.keys.count > m { fail("maxProperties", "object has more than \(m) properties") }
            for (trigger, names) in k.dependentRequired where object[trigger] != nil {
                for name in names where object[name] == nil { fail("dependentRequired", "'\(trigger)' requires '\(name)'") }
            }
            if let additional = k.additionalProperties {
                let declared = Set(k.properties.map(\.name))
                for name in object.keys where !declared.contains(name) && !k.patternProperties.contains(where: { $0.0.found(in: name) }) {
                    let memberPath = path + "/" + JSON.escapePointerToken(name)
                    if case .constant(false) = additional.content {
                        fail("additionalProperties", "property '\(name)' is not allowed", at: memberPath)
                    } else {
                        check(object[name]!, against: additional, at: memberPath, into: &out)
                    }
                }
            }

        case .null, .bool:
            break
        }

        if let negated = k.not {
            var sub: [Violation] = []
            check(value, against: negated, at: path, into: &sub)
            if sub.isEmpty { fail("not", "\(value.brief) matches the schema of 'not'") }
        }
        if let schemas = k.allOf {
            for schema in schemas {
                check(value, against: schema, at: path, into: &out)
            }
        }
        if let schemas = k.anyOf {
            var failures: [[Violation]] = []
            for schema in schemas {
                var sub: [Violation] = []
                check(value, against: schema, at: path, into: &sub)
                if sub.isEmpty { failures = []; break }
                failures.append(sub)
            }
            if !failures.isEmpty {
                fail("anyOf", "value matches none of the \(schemas.count) anyOf subschemas: \(Self.summary(failures))")
            }
        }
        if let schemas = k.oneOf {
            var matching: [Int] = []
            var failures: [[Violation]] = []
            for (index, schema) in schemas.enumerated() {
                var sub: [Violation] = []
                check(value, against: schema, at: path, into: &sub)
                if sub.isEmpty { matching.append(index) } else { failures.append(sub) }
            }
            if matching.isEmpty {
                fail("oneOf", "value matches none of the \(schemas.count) oneOf subschemas: \(Self.summary(failures))")
            } else if matching.count > 1 {
                fail(
                    "oneOf",
                    "value matches \(matching.count) oneOf subschemas (indices \(matching.map(String.init).joined(separator: ", "))), but exactly one is required"
                )
            }
        }
    }

    private static func summary(_ failures: [[Violation]]) -> String {
        failures.enumerated().map { index, violations in
            let first = violations.prefix(2).map(\.description).joined(separator: "; ")
            let more = violations.count > 2 ? "; ..." : ""
            return "[\(index)] \(first)\(more)"
        }.joined(separator: " | ")
    }
}

// MARK: - JSON values and a strict parser

extension JSONSchemaValidator {
    package enum JSON: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSON])
        case object(Object)

        /// An object that remembers member order; equality ignores order.
        package struct Object: Sendable, Equatable {
            private(set) var keys: [String] = []
            private var members: [String: JSON] = [:]

            subscript(key: String) -> JSON? { members[key] }

            /// Returns false when the key is already present.
            mutating func insert(_ key: String, _ value: JSON) -> Bool {
                guard members[key] == nil else { return false }
                keys.append(key)
                members[key] = value
                return true
            }

            package static func == (lhs: Object, rhs: Object) -> Bool {
                lhs.members == rhs.members
            }
        }

        struct ParseError: Error, CustomStringConvertible {
            let offset: Int
            let reason: String
            var description: String { "\(reason) at byte \(offset)" }
        }

        package static func parse(_ data: Data) throws -> JSON {
            var parser = Parser(bytes: [UInt8](data))
            return try parser.parseDocument()
        }

        package static func parse(_ text: String) throws -> JSON {
            try parse(Data(text.utf8))
        }

        static func escapePointerToken(_ token: String) -> String {
            token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }

        var typeName: String {
            switch self {
            case .null: "null"
            case .bool: "boolean"
            case .number(let d): d.rounded(.towardZero) == d ? "integer" : "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        }

        /// Compact JSON text, shortened for messages.
        var brief: String {
            let text = serialized
            return text.count > 80 ? String(text.prefix(77)) + "..." : text
        }

        var serialized: String {
            switch self {
            case .null: return "null"
            case .bool(let b): return b ? "true" : "false"
            case .number(let d):
                if d.rounded(.towardZero) == d, abs(d) < 1e15 { return String(Int64(d)) }
                return String(d)
            case .string(let s): return Self.quote(s)
            case .array(let elements): return "[" + elements.map(\.serialized).joined(separator: ",") + "]"
            case .object(let o):
                return "{" + o.keys.map { Self.quote($0) + ":" + o[$0]!.serialized }.joined(separator: ",") + "}"
            }
        }

        private static func quote(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0
        static let maxDepth = 512

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> JSON.ParseError {
            JSON.ParseError(offset: index, reason: reason)
        }

        mutating func parseDocument() throws -> JSON {
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            guard index == bytes.count else { throw error("unexpected trailing content") }
            return value
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func parseValue() throws -> JSON {
            guard index < bytes.count else { throw error("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: String, _ value: JSON) throws -> JSON {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("invalid literal")
            }
            index += expected.count
            return value
        }

        mutating func enter() throws {
            depth += 1
            guard depth <= Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth)") }
        }

        mutating func parseObject() throws -> JSON {
            try enter()
            defer { depth -= 1 }
            index += 1
            var object = JSON.Object()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let keyOffset = index
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                let value = try parseValue()
                guard object.insert(key, value) else {
                    throw JSON.ParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"")
                }
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input in object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                throw error("expected ',' or '}'")
            }
        }

        mutating func parseArray() throws -> JSON {
            try enter()
            defer { depth -= 1 }
            index += 1
            var elements: [JSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue())
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input in array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func parseString() throws -> String {
            index += 1  // opening quote
            var buffer: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    let string = String(decoding: buffer, as: UTF8.self)
                    guard Array(string.utf8) == buffer else { throw error("invalid UTF-8 in string") }
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw error("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): buffer.append(0x22)
                    case UInt8(ascii: "\\"): buffer.append(0x5C)
                    case UInt8(ascii: "/"): buffer.append(0x2F)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw error("unpaired high surrogate")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(code) {
                            throw error("unpaired low surrogate")
                        }
                        buffer.append(contentsOf: Array(String(Unicode.Scalar(code)!).utf8))
                    default:
                        throw error("invalid escape")
                    }
                case 0x00..<0x20:
                    throw error("unescaped control character in string")
                default:
                    buffer.append(byte)
                    index += 1
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("invalid hex digit in \\u escape")
                }
                value = value * 16 + UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func parseNumber() throws -> JSON {
            let start = index
            func isDigit(_ i: Int) -> Bool {
                i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i])
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw error("expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { throw error("leading zeros are not allowed") }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw error("expected a digit after '.'") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { throw error("expected a digit in exponent") }
                while isDigit(index) { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                throw JSON.ParseError(offset: start, reason: "number \(text) is out of range")
            }
            return .number(value)
        }
    }
}

/// The formats JSON Schema names, checked independently of the engine's
/// patterns: Foundation's parsers, `inet_pton`, and rules written from the
/// RFCs. Nil for a format not known here (an annotation).
enum Formats {
    static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date": return date(text)
        case "time": return time(text)
        case "date-time":
            guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
            return date(String(text[..<separator])) && time(String(text[text.index(after: separator)...]))
        case "duration":
            return matches(#"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$"#, text) && !text.hasSuffix("T")
        case "email":
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && parts[0].count <= 64 && hostname(String(parts[1]))
        case "hostname": return hostname(text)
        case "ipv4":
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4
                && parts.allSatisfy { part in
                    guard let value = Int(part), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return false }
                    return value <= 255 && (part == "0" || !part.hasPrefix("0"))
                }
        case "ipv6":
            var address = in6_addr()
            return !text.contains("%") && inet_pton(AF_INET6, text, &address) == 1
        case "uri":
            guard let components = URLComponents(string: text), let scheme = components.scheme else { return false }
            return !scheme.isEmpty && text.allSatisfy { $0.isASCII && !$0.isWhitespace }
        case "uri-reference":
            return URLComponents(string: text) != nil && text.allSatisfy { $0.isASCII && !$0.isWhitespace }
        case "uuid":
            return text.count == 36 && UUID(uuidString: text) != nil
        default:
            return nil
        }
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    static func date(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2), let day = digits(parts[2], 2),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    static func time(_ text: String) -> Bool {
        var rest = Substring(text)
        guard rest.count >= 9, let hour = digits(rest.prefix(2), 2), rest.dropFirst(2).first == ":",
            let minute = digits(rest.dropFirst(3).prefix(2), 2), rest.dropFirst(5).first == ":",
            let second = digits(rest.dropFirst(6).prefix(2), 2), hour < 24, minute < 60, second < 60
        else { return false }
        rest = rest.dropFirst(8)
        if rest.first == "." {
            let fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        if rest == "Z" || rest == "z" { return true }
        guard rest.count == 6, rest.first == "+" || rest.first == "-", let offsetHour = digits(rest.dropFirst().prefix(2), 2),
            rest.dropFirst(3).first == ":", let offsetMinute = digits(rest.dropFirst(4), 2)
        else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }

    static func hostname(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
