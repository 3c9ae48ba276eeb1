import CLlama
import Foundation

/// Cheap checks and metadata reads on a GGUF file, without loading weights.
package enum GGUFFile {
    /// The fixed-size start of every GGUF file.
    package struct Header: Sendable, Equatable {
        package var version: UInt32
        package var tensorCount: UInt64
        package var metadataCount: UInt64
        package var fileSize: UInt64
    }

    /// "GGUF" read as bytes.
    static let magic: [UInt8] = [0x47, 0x47, 0x55, 0x46]
    /// magic (4) + version (4) + tensor count (8) + metadata count (8).
    static let headerSize = 24

    /// Checks that `path` names a regular file that starts with a GGUF header
    /// of a version llama.cpp reads (2 or 3), with plausible counts. Reads 24
    /// bytes; never hands the file to llama.cpp. Throws `.fileNotFound` or
    /// `.notAGGUFFile`.
    package static func validate(path: String) throws -> Header {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw LlamaError.fileNotFound(path: path)
        }
        let size: UInt64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        } catch {
            throw LlamaError.fileNotFound(path: path)
        }
        guard size >= UInt64(headerSize) else {
            throw LlamaError.notAGGUFFile(path: path, reason: "\(size) bytes is too small for a GGUF header")
        }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = [UInt8](try handle.read(upToCount: headerSize) ?? Data())
        } catch {
            throw LlamaError.notAGGUFFile(path: path, reason: "unreadable: \(error.localizedDescription)")
        }
        guard bytes.count == headerSize else {
            throw LlamaError.notAGGUFFile(path: path, reason: "short read of the header")
        }
        guard Array(bytes[0..<4]) == magic else {
            throw LlamaError.notAGGUFFile(path: path, reason: "no GGUF magic at the start of the file")
        }
        func little<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size {
                value |= T(bytes[offset + index]) << (8 * index)
            }
            return value
        }
        let header = Header(
            version: little(4, as: UInt32.self),
            tensorCount: little(8, as: UInt64.self),
            metadataCount: little(16, as: UInt64.self),
            fileSize: size
        )
        guard header.version == 2 || header.version == 3 else {
            throw LlamaError.notAGGUFFile(path: path, reason: "unsupported GGUF version \(header.version)")
        }
        // Every tensor info and key-value pair takes at least 8 bytes; counts
        // beyond what the file could hold mean garbage (and would make the
        // parser allocate absurd amounts).
        guard header.tensorCount <= size / 8, header.metadataCount <= size / 8 else {
            throw LlamaError.notAGGUFFile(path: path, reason: "implausible tensor/metadata counts")
        }
        return header
    }

    /// One metadata value.
    package enum Value: Sendable, Equatable, CustomStringConvertible {
        case int(Int64)
        case uint(UInt64)
        case float(Double)
        case bool(Bool)
        case string(String)
        case array([Value])
        /// An array longer than the limit given to `metadata(path:)` (e.g. the
        /// tokenizer's vocabulary): only its length is kept.
        case largeArray(count: Int)

        package var stringValue: String? {
            if case .string(let string) = self { return string }
            return nil
        }

        package var intValue: Int? {
            switch self {
            case .int(let value): return Int(exactly: value)
            case .uint(let value): return Int(exactly: value)
            default: return nil
            }
        }

        package var description: String {
            switch self {
            case .int(let value): return String(value)
            case .uint(let value): return String(value)
            case .float(let value): return String(value)
            case .bool(let value): return String(value)
            case .string(let value): return value
            case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
            case .largeArray(let count): return "[\(count) elements]"
            }
        }
    }

    /// Every metadata key-value pair of the file, without tensor data.
    /// Validates the header first, so a non-GGUF file is never parsed.
    /// Arrays longer than `maximumArrayLength` are summarized as `.largeArray`.
    package static func metadata(path: String, maximumArrayLength: Int = 1024) throws -> [String: Value] {
        try withHeader(path: path) { metadata(in: $0, maximumArrayLength: maximumArrayLength) }
    }

    /// The shape of every tensor in the file, by name, in GGUF's order of
    /// dimensions (`ne`: the row length first), without reading tensor data.
    package static func tensorShapes(path: String) throws -> [String: [Int64]] {
        try withHeader(path: path) { tensorShapes(in: $0) }
    }

    /// Runs `body` on the file's parsed header (metadata and tensor
    /// descriptions, no tensor data), after validating it: one parse for
    /// whatever `body` reads of it.
    static func withHeader<T>(path: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        _ = try validate(path: path)
        LlamaBackend.initialize()
        let params = gguf_init_params(no_alloc: true, ctx: nil)
        guard let context = gguf_init_from_file(path, params) else {
            throw LlamaError.notAGGUFFile(path: path, reason: "metadata does not parse")
        }
        defer { gguf_free(context) }
        return try body(context)
    }

    static func metadata(in context: OpaquePointer, maximumArrayLength: Int) -> [String: Value] {
        var result: [String: Value] = [:]
        for index in 0..<gguf_get_n_kv(context) {
            guard let key = gguf_get_key(context, index) else { continue }
            let type = gguf_get_kv_type(context, index)
            if type == GGUF_TYPE_ARRAY {
                let length = gguf_get_arr_n(context, index)
                if length > maximumArrayLength {
                    result[String(cString: key)] = .largeArray(count: length)
                } else {
                    result[String(cString: key)] = .array(arrayValues(context, index, length))
                }
            } else if let value = scalar(context, index, type) {
                result[String(cString: key)] = value
            }
        }
        return result
    }

    static func tensorShapes(in context: OpaquePointer) -> [String: [Int64]] {
        var shapes: [String: [Int64]] = [:]
        for index in 0..<gguf_get_n_tensors(context) {
            guard let name = gguf_get_tensor_name(context, index), let ne = gguf_get_tensor_ne(context, index) else { continue }
            var shape = (0..<Int(GGML_MAX_DIMS)).map { ne[$0] }
            while shape.count > 1, shape.last == 1 { shape.removeLast() }
            shapes[String(cString: name)] = shape
        }
        return shapes
    }

    /// The string value of `key`, when the header has one.
    static func string(_ key: String, in context: OpaquePointer) -> String? {
        let index = gguf_find_key(context, key)
        guard index >= 0, gguf_get_kv_type(context, index) == GGUF_TYPE_STRING, let value = gguf_get_val_str(context, index) else { return nil }
        return String(cString: value)
    }

    /// `general.languages` (ISO 639 codes such as "en"), without loading the
    /// model; empty when the file lists none.
    package static func languages(path: String) throws -> [String] {
        guard case .array(let values)? = try metadata(path: path, maximumArrayLength: 4096)["general.languages"] else {
            return []
        }
        return values.compactMap(\.stringValue)
    }

    // The typed getters assert on a type mismatch, so each is called only
    // for its own type.
    private static func scalar(_ context: OpaquePointer, _ index: Int64, _ type: gguf_type) -> Value? {
        switch type {
        case GGUF_TYPE_UINT8: return .uint(UInt64(gguf_get_val_u8(context, index)))
        case GGUF_TYPE_INT8: return .int(Int64(gguf_get_val_i8(context, index)))
        case GGUF_TYPE_UINT16: return .uint(UInt64(gguf_get_val_u16(context, index)))
        case GGUF_TYPE_INT16: return .int(Int64(gguf_get_val_i16(context, index)))
        case GGUF_TYPE_UINT32: return .uint(UInt64(gguf_get_val_u32(context, index)))
        case GGUF_TYPE_INT32: return .int(Int64(gguf_get_val_i32(context, index)))
        case GGUF_TYPE_UINT64: return .uint(gguf_get_val_u64(context, index))
        case GGUF_TYPE_INT64: return .int(gguf_get_val_i64(context, index))
        case GGUF_TYPE_FLOAT32: return .float(Double(gguf_get_val_f32(context, index)))
        case GGUF_TYPE_FLOAT64: return .float(gguf_get_val_f64(context, index))
        case GGUF_TYPE_BOOL: return .bool(gguf_get_val_bool(context, index))
        case GGUF_TYPE_STRING:
            guard let string = gguf_get_val_str(context, index) else { return nil }
            return .string(String(cString: string))
        default: return nil
        }
    }

    private static func arrayValues(_ context: OpaquePointer, _ index: Int64, _ length: Int) -> [Value] {
        let type = gguf_get_arr_type(context, index)
        if type == GGUF_TYPE_STRING {
            return (0..<length).compactMap { element in
                gguf_get_arr_str(context, index, element).map { .string(String(cString: $0)) }
            }
        }
        guard length > 0, let data = gguf_get_arr_data(context, index) else { return [] }
        func load<T>(_: T.Type, _ convert: (T) -> Value) -> [Value] {
            let typed = data.bindMemory(to: T.self, capacity: length)
            return (0..<length).map { convert(typed[$0]) }
        }
        switch type {
        case GGUF_TYPE_UINT8: return load(UInt8.self) { .uint(UInt64($0)) }
        case GGUF_TYPE_INT8: return load(Int8.self) { .int(Int64($0)) }
        case GGUF_TYPE_UINT16: return load(UInt16.self) { .uint(UInt64($0)) }
        case GGUF_TYPE_INT16: return load(Int16.self) { .int(Int64($0)) }
        case GGUF_TYPE_UINT32: return load(UInt32.self) { .uint(UInt64($0)) }
        case GGUF_TYPE_INT32: return load(Int32.self) { .int(Int64($0)) }
        case GGUF_TYPE_UINT64: return load(UInt64.self) { .uint($0) }
        case GGUF_TYPE_INT64: return load(Int64.self) { .int($0) }
        case GGUF_TYPE_FLOAT32: return load(Float.self) { .float(Double($0)) }
        case GGUF_TYPE_FLOAT64: return load(Double.self) { .float($0) }
        case GGUF_TYPE_BOOL: return load(Bool.self) { .bool($0) }
        default: return []
        }
    }
}
