import ArgumentParser
import Foundation
import FoundationModels

extension FM {
    /// `fm schema object`: Apple's schema builder — a JSON Schema for an
    /// object type, declared property by property with flags, printed as one
    /// line of JSON that `fm respond --schema` (and another `--schema` here)
    /// takes.
    ///
    /// The flags are read in order, since a modifier (`--array`,
    /// `--description`, `--optional`) applies to the property before it and
    /// a `--schema` to the `--object` or `--anyOf` before it; that is why
    /// this command reads its arguments itself rather than through
    /// swift-argument-parser's options, which keep no order between them.
    struct SchemaObject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "object",
            abstract: "Print a JSON Schema for an object type declared with flags.",
            usage: "fm schema object --name NAME (--string|--integer|--double|--boolean|--object NAME [MODIFIERS])… | --anyOf --schema JSON…",
            discussion: """
                Declarations, read in order:
                  --name NAME              the type's name (required)
                  --string NAME            a string property; also --integer (--int),
                                           --double (--number), --boolean (--bool)
                  --object NAME            a property whose type is the --schema JSON
                                           after it (also --nested NAME)
                  --anyOf                  the type is a union of the --schema JSONs after it
                  --schema JSON            a schema, as text (what this command prints)
                                           or as a file
                Modifiers, of the property before them:
                  --array                  an array of the property's type
                  --description TEXT       its description (before any property: the type's)
                  --optional               it may be left out (the others are required)
                A dotted name (address.street) declares a property of a nested object.
                The schema is printed as one line of JSON, which fm respond --schema takes.

                Examples:
                  fm schema object --name Person --string name --integer age --optional
                  fm schema object --name Place --string name --string address.zip
                  fm schema object --name Place --string title \\
                    --object address --schema "$(fm schema object --name Address --string zip)"
                  fm schema object --name Result --anyOf \\
                    --schema "$(fm schema object --name Found --string name)" \\
                    --schema "$(fm schema object --name NotFound --string reason)"
                """
        )

        @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The declarations, in order (below).", valueName: "declaration"))
        var declarations: [String] = []

        var asksForHelp: Bool { declarations.contains { ["-h", "--help", "help"].contains($0) } }

        /// The declarations are checked here, so a mistake is reported with
        /// this command's usage and exit status 64, as an unknown option is.
        func validate() throws {
            if !asksForHelp { _ = try ObjectSchema(parsing: declarations).json }
        }

        func run() throws {
            if asksForHelp {
                print(Self.helpMessage())
                return
            }
            print(try ObjectSchema(parsing: declarations).json.jsonString)
        }
    }
}

/// An object schema declared with `fm schema object`'s flags.
struct ObjectSchema {
    struct Property {
        var path: [String]
        var type: GeneratedContent
        var isArray = false
        var isOptional = false
        var description: String?
        /// An `--object` whose `--schema` has not come yet.
        var awaitsSchema = false

        /// The property's schema: its type, made an array and described.
        var schema: GeneratedContent {
            var schema = isArray ? .object(["type": .text("array"), "items": type]) : type
            if let description { schema = schema.adding("description", .text(description)) }
            return schema
        }
    }

    var name: String?
    var description: String?
    var properties: [Property] = []
    var isUnion = false
    var choices: [GeneratedContent] = []
    /// The nested schemas' `$defs`, gathered at the root, where their
    /// `$ref`s (`#/$defs/…`) still find them.
    var definitions: [(String, GeneratedContent)] = []

    static let types = [
        "--string": "string", "--integer": "integer", "--int": "integer", "--double": "number", "--number": "number",
        "--boolean": "boolean", "--bool": "boolean",
    ]

    init(parsing arguments: [String]) throws {
        var rest = arguments[...]
        func value(of flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw ValidationError("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            // --flag=value is --flag value.
            var flag = argument
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                rest.insert(String(argument[argument.index(after: equals)...]), at: rest.startIndex)
            }
            if let type = Self.types[flag] {
                try declare(try value(of: flag), type: .object(["type": .text(type)]))
            } else {
                switch flag {
                case "--name": name = try value(of: flag)
                case "--object", "--nested":
                    try declare(try value(of: flag), type: .object(["type": .text("object")]))
                    properties[properties.count - 1].awaitsSchema = true
                case "--anyOf", "--any-of": isUnion = true
                case "--schema": try attach(try Self.read(try value(of: flag)))
                case "--array": try modifyLast(flag) { $0.isArray = true }
                case "--optional": try modifyLast(flag) { $0.isOptional = true }
                case "--description":
                    let text = try value(of: flag)
                    if properties.isEmpty { description = text } else { try modifyLast(flag) { $0.description = text } }
                default:
                    throw ValidationError(
                        flag.hasPrefix("-")
                            ? "unknown option \(flag) (fm schema object --help lists the declarations)"
                            : "unexpected argument \(flag): a property's name follows --string, --integer, --double, --boolean or --object")
                }
            }
        }
        guard name?.isEmpty == false else { throw ValidationError("--name NAME is required: the type's name") }
        if let waiting = properties.first(where: \.awaitsSchema) {
            throw ValidationError("--object \(waiting.path.joined(separator: ".")) needs a --schema after it")
        }
        if isUnion {
            if !properties.isEmpty { throw ValidationError("--anyOf makes the type a union of --schema choices; it has no properties of its own") }
            if choices.isEmpty { throw ValidationError("--anyOf needs at least one --schema after it") }
        } else if properties.isEmpty {
            throw ValidationError("declare at least one property (--string NAME, --integer NAME, …) or an --anyOf union")
        }
    }

    private mutating func declare(_ name: String, type: GeneratedContent) throws {
        let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains(where: \.isEmpty) else { throw ValidationError("\(name) is not a property name") }
        for other in properties {
            if other.path == path { throw ValidationError("\(name) is declared twice") }
            if other.path.starts(with: path) || path.starts(with: other.path) {
                throw ValidationError("\(name) and \(other.path.joined(separator: ".")) cannot both be declared: one holds the other")
            }
        }
        if let waiting = properties.last, waiting.awaitsSchema {
            throw ValidationError("--object \(waiting.path.joined(separator: ".")) needs a --schema before the next property")
        }
        properties.append(Property(path: path, type: type))
    }

    private mutating func modifyLast(_ flag: String, _ change: (inout Property) -> Void) throws {
        guard !properties.isEmpty else { throw ValidationError("\(flag) modifies the property before it, and none is declared yet") }
        change(&properties[properties.count - 1])
    }

    /// `--schema J`: the type of the `--object` before it, or a choice of
    /// the `--anyOf` union.
    private mutating func attach(_ schema: GeneratedContent) throws {
        var schema = schema
        if case .structure(var members, var keys) = schema.kind, let defs = members["$defs"] {
            members["$defs"] = nil
            keys.removeAll { $0 == "$defs" }
            schema = GeneratedContent(kind: .structure(properties: members, orderedKeys: keys))
            if case .structure(let nested, let order) = defs.kind {
                for key in order where !definitions.contains(where: { $0.0 == key }) { definitions.append((key, nested[key]!)) }
            }
        }
        if let last = properties.last, last.awaitsSchema {
            properties[properties.count - 1].type = schema
            properties[properties.count - 1].awaitsSchema = false
        } else if isUnion {
            choices.append(schema)
        } else {
            throw ValidationError("--schema gives the type of the --object before it, or a choice of an --anyOf union")
        }
    }

    /// A `--schema` value: JSON text (what `fm schema object` prints), or a
    /// file that holds it.
    static func read(_ text: String) throws -> GeneratedContent {
        var json = text
        if !text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") {
            guard let data = FileManager.default.contents(atPath: text) else {
                throw ValidationError("--schema \(text) is neither JSON nor a readable file")
            }
            json = String(decoding: data, as: UTF8.self)
        }
        do {
            let content = try GeneratedContent(json: json)
            guard case .structure = content.kind else { throw ValidationError("--schema is not a JSON object") }
            return content
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--schema is not JSON: \(error)")
        }
    }

    /// The schema, checked by the parser `fm respond --schema` uses, so
    /// what this prints is what respond takes.
    var json: GeneratedContent {
        get throws {
            var root: [(String, GeneratedContent)] = [("title", .text(name ?? ""))]
            if let description { root.append(("description", .text(description))) }
            if isUnion {
                root.append(("anyOf", GeneratedContent(kind: .array(choices))))
            } else {
                root += Self.object(properties.map { ($0.path, $0) })
            }
            if !definitions.isEmpty { root.append(("$defs", .object(definitions))) }
            let schema = GeneratedContent.object(root)
            do {
                _ = try GenerationSchema(jsonSchema: schema)
            } catch {
                throw ValidationError("the declarations make a schema guided generation cannot follow: \(error)")
            }
            return schema
        }
    }

    /// An object's members (`type`, `properties`, `required`, `x-order`,
    /// `additionalProperties`) for properties by their remaining paths:
    /// dotted names become nested objects, in the order first declared.
    static func object(_ members: [([String], Property)]) -> [(String, GeneratedContent)] {
        var order: [String] = []
        var groups: [String: [([String], Property)]] = [:]
        for (path, property) in members {
            if groups[path[0]] == nil { order.append(path[0]) }
            groups[path[0], default: []].append((Array(path.dropFirst()), property))
        }
        var properties: [(String, GeneratedContent)] = []
        var required: [GeneratedContent] = []
        for key in order {
            let group = groups[key]!
            if group.count == 1, group[0].0.isEmpty {
                properties.append((key, group[0].1.schema))
                if !group[0].1.isOptional { required.append(.text(key)) }
            } else {
                properties.append((key, .object(object(group))))
                // A nested object is there when any of its properties must be.
                if group.contains(where: { !$0.1.isOptional }) { required.append(.text(key)) }
            }
        }
        return [
            ("type", .text("object")),
            ("properties", .object(properties)),
            ("required", GeneratedContent(kind: .array(required))),
            ("x-order", GeneratedContent(kind: .array(order.map { .text($0) }))),
            ("additionalProperties", GeneratedContent(kind: .bool(false))),
        ]
    }
}

extension GeneratedContent {
    /// A JSON object with its keys in the given order.
    static func object(_ members: [(String, GeneratedContent)]) -> GeneratedContent {
        GeneratedContent(kind: .structure(properties: Dictionary(members, uniquingKeysWith: { $1 }), orderedKeys: members.map(\.0)))
    }

    static func object(_ members: KeyValuePairs<String, GeneratedContent>) -> GeneratedContent {
        object(members.map { ($0.key, $0.value) })
    }

    static func text(_ value: String) -> GeneratedContent { GeneratedContent(kind: .string(value)) }

    /// This object with `key` set (appended when new).
    func adding(_ key: String, _ value: GeneratedContent) -> GeneratedContent {
        guard case .structure(var members, var keys) = kind else { return self }
        if members[key] == nil { keys.append(key) }
        members[key] = value
        return GeneratedContent(kind: .structure(properties: members, orderedKeys: keys))
    }
}
