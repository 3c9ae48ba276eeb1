import Foundation

// The JSON form of the sampling and tool-calling modes. Apple does not
// document it; this shape is ours, chosen to be self-describing:
//   "samplingMode": {"type": "greedy"}
//   "samplingMode": {"type": "topK", "k": 40, "seed": 7}
//   "samplingMode": {"type": "probabilityThreshold", "threshold": 0.9}
//   "toolCallingMode": "allowed" | "required" | "disallowed"
// Absent options are left out of the JSON.

extension GenerationOptions.SamplingMode {
    private enum CodingKeys: String, CodingKey {
        case type, k, threshold, seed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        switch type {
        case "greedy":
            self = .greedy
        case "topK":
            self = .random(top: try container.decode(Int.self, forKey: .k), seed: seed)
        case "probabilityThreshold":
            self = .random(probabilityThreshold: try container.decode(Double.self, forKey: .threshold), seed: seed)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "Unknown sampling mode '\(type)'; expected 'greedy', 'topK' or 'probabilityThreshold'."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .greedy:
            try container.encode("greedy", forKey: .type)
        case .randomTopK(let k, let seed):
            try container.encode("topK", forKey: .type)
            try container.encode(k, forKey: .k)
            try container.encodeIfPresent(seed, forKey: .seed)
        case .randomProbabilityThreshold(let threshold, let seed):
            try container.encode("probabilityThreshold", forKey: .type)
            try container.encode(threshold, forKey: .threshold)
            try container.encodeIfPresent(seed, forKey: .seed)
        }
    }
}

extension GenerationOptions.ToolCallingMode {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        switch name {
        case "allowed": self = .allowed
        case "required": self = .required
        case "disallowed": self = .disallowed
        default:
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Unknown tool calling mode '\(name)'; expected 'allowed', 'required' or 'disallowed'."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch kind {
        case .allowed: try container.encode("allowed")
        case .required: try container.encode("required")
        case .disallowed: try container.encode("disallowed")
        }
    }
}
