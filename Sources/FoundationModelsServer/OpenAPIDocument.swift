/// The OpenAPI document of every route fm serve offers (`GET /openapi.json`):
/// a machine-readable contract that tools check the server against
/// (schemathesis fuzzes it in the tests) and clients generate code from.
/// Requests are described as the server accepts them; responses as it
/// writes them, with every status a route may answer and OpenAI's error
/// body for each failure.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.0.3",
          "info": {"title": "fm serve", "version": "1", "description": "OpenAI-compatible API over an in-process model."},
          "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
              "Error": {
                "type": "object", "required": ["error"],
                "properties": {"error": {"type": "object", "required": ["message", "type", "param", "code"], "properties": {
                  "message": {"type": "string"}, "type": {"type": "string"},
                  "param": {"type": "string", "nullable": true}, "code": {"type": "string", "nullable": true}}}}
              },
              "Text": {"oneOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "object", "required": ["type", "text"],
                  "properties": {"type": {"type": "string", "enum": ["text", "input_text", "output_text"]}, "text": {"type": "string"}}}}
              ]},
              "FunctionParameters": {"type": "object", "properties": {
                "type": {"type": "string", "enum": ["object"]},
                "properties": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                  "type": {"type": "string", "enum": ["string", "integer", "number", "boolean"]}}}},
                "required": {"type": "array", "items": {"type": "string"}}}},
              "ChatMessage": {"type": "object", "required": ["role"], "properties": {
                "role": {"type": "string", "enum": ["system", "developer", "user", "assistant", "tool"]},
                "content": {"$ref": "#/components/schemas/Text"},
                "tool_call_id": {"type": "string"},
                "tool_calls": {"type": "array", "items": {"type": "object", "required": ["id", "type", "function"], "properties": {
                  "id": {"type": "string"}, "type": {"type": "string", "enum": ["function"]},
                  "function": {"type": "object", "required": ["name", "arguments"], "properties": {
                    "name": {"type": "string"}, "arguments": {"type": "string"}}}}}}}},
              "ChatCompletionRequest": {"type": "object", "required": ["messages"], "properties": {
                "model": {"type": "string"},
                "messages": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"$ref": "#/components/schemas/ChatMessage"}},
                "stream": {"type": "boolean"},
                "stream_options": {"type": "object", "properties": {"include_usage": {"type": "boolean"}}},
                "max_tokens": {"type": "integer", "minimum": 1}, "max_completion_tokens": {"type": "integer", "minimum": 1},
                "temperature": {"type": "number", "minimum": 0, "maximum": 2},
                "top_p": {"type": "number", "exclusiveMinimum": true, "minimum": 0, "maximum": 1},
                "top_k": {"type": "integer", "minimum": 1}, "seed": {"type": "integer"},
                "stop": {"oneOf": [{"type": "string"}, {"type": "array", "maxItems": 4, "items": {"type": "string"}}]},
                "n": {"type": "integer", "enum": [1]},
                "logprobs": {"type": "boolean"}, "top_logprobs": {"type": "integer", "minimum": 0, "maximum": 20},
                "response_format": {"type": "object", "required": ["type"], "properties": {
                  "type": {"type": "string", "enum": ["text", "json_object", "json_schema"]},
                  "json_schema": {"type": "object", "required": ["name", "schema"], "properties": {
                    "name": {"type": "string"}, "strict": {"type": "boolean"},
                    "schema": {"$ref": "#/components/schemas/FunctionParameters"}}}}},
                "tools": {"type": "array", "maxItems": 4, "items": {"type": "object", "required": ["type", "function"], "properties": {
                  "type": {"type": "string", "enum": ["function"]},
                  "function": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}, "description": {"type": "string"},
                    "parameters": {"$ref": "#/components/schemas/FunctionParameters"}, "strict": {"type": "boolean"}}}}}},
                "tool_choice": {"oneOf": [{"type": "string", "enum": ["auto", "none", "required"]},
                  {"type": "object", "required": ["type", "function"], "properties": {"type": {"type": "string", "enum": ["function"]},
                    "function": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}]},
                "parallel_tool_calls": {"type": "boolean"}, "user": {"type": "string"}}},
              "ChatCompletion": {"type": "object", "required": ["id", "object", "created", "model", "choices", "usage"], "properties": {
                "id": {"type": "string"}, "object": {"type": "string", "enum": ["chat.completion"]}, "created": {"type": "integer"},
                "model": {"type": "string"},
                "choices": {"type": "array", "items": {"type": "object", "required": ["index", "message", "finish_reason"], "properties": {
                  "index": {"type": "integer"}, "finish_reason": {"type": "string", "enum": ["stop", "length", "tool_calls"]},
                  "message": {"type": "object", "required": ["role", "content"], "properties": {
                    "role": {"type": "string", "enum": ["assistant"]}, "content": {"type": "string", "nullable": true},
                    "tool_calls": {"type": "array", "items": {"type": "object"}}}}}}},
                "usage": {"$ref": "#/components/schemas/Usage"}}},
              "Usage": {"type": "object", "required": ["prompt_tokens", "completion_tokens", "total_tokens"], "properties": {
                "prompt_tokens": {"type": "integer", "minimum": 0}, "completion_tokens": {"type": "integer", "minimum": 0},
                "total_tokens": {"type": "integer", "minimum": 0}}},
              "ResponseRequest": {"type": "object", "required": ["input"], "properties": {
                "model": {"type": "string"},
                "input": {"oneOf": [{"type": "string"}, {"type": "array", "minItems": 1, "maxItems": 16, "items": {"type": "object", "properties": {
                  "type": {"type": "string", "enum": ["message", "function_call", "function_call_output"]},
                  "role": {"type": "string", "enum": ["system", "developer", "user", "assistant"]},
                  "content": {"$ref": "#/components/schemas/Text"},
                  "call_id": {"type": "string"}, "name": {"type": "string"}, "arguments": {"type": "string"}, "output": {"type": "string"}}}}]},
                "instructions": {"type": "string"}, "stream": {"type": "boolean"},
                "max_output_tokens": {"type": "integer", "minimum": 1},
                "temperature": {"type": "number", "minimum": 0, "maximum": 2},
                "top_p": {"type": "number", "exclusiveMinimum": true, "minimum": 0, "maximum": 1},
                "store": {"type": "boolean"}, "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
                "include": {"type": "array", "items": {"type": "string", "enum": ["message.output_text.logprobs", "reasoning.encrypted_content"]}},
                "top_logprobs": {"type": "integer", "minimum": 0, "maximum": 20},
                "text": {"type": "object", "properties": {"format": {"type": "object", "required": ["type"], "properties": {
                  "type": {"type": "string", "enum": ["text", "json_object", "json_schema"]}, "name": {"type": "string"},
                  "strict": {"type": "boolean"}, "schema": {"$ref": "#/components/schemas/FunctionParameters"}}}}},
                "tools": {"type": "array", "maxItems": 4, "items": {"type": "object", "required": ["type", "name"], "properties": {
                  "type": {"type": "string", "enum": ["function"]}, "name": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                  "description": {"type": "string"}, "parameters": {"$ref": "#/components/schemas/FunctionParameters"},
                  "strict": {"type": "boolean"}}}},
                "tool_choice": {"oneOf": [{"type": "string", "enum": ["auto", "none", "required"]},
                  {"type": "object", "required": ["type", "name"], "properties": {"type": {"type": "string", "enum": ["function"]},
                    "name": {"type": "string"}}}]}}},
              "Response": {"type": "object", "required": ["id", "object", "created_at", "status", "model", "output"], "properties": {
                "id": {"type": "string"}, "object": {"type": "string", "enum": ["response"]}, "created_at": {"type": "integer"},
                "status": {"type": "string", "enum": ["completed", "incomplete"]}, "model": {"type": "string"},
                "output": {"type": "array", "items": {"type": "object", "required": ["type"], "properties": {
                  "type": {"type": "string", "enum": ["message", "function_call"]},
                  "content": {"type": "array", "items": {"type": "object", "required": ["type", "text"], "properties": {
                    "type": {"type": "string", "enum": ["output_text"]}, "text": {"type": "string"},
                    "logprobs": {"type": "array", "items": {"type": "object", "required": ["token", "logprob", "bytes", "top_logprobs"], "properties": {
                      "token": {"type": "string"}, "logprob": {"type": "number", "maximum": 0},
                      "bytes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
                      "top_logprobs": {"type": "array", "maxItems": 20, "items": {"type": "object", "required": ["token", "logprob", "bytes"], "properties": {
                        "token": {"type": "string"}, "logprob": {"type": "number", "maximum": 0},
                        "bytes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}}}}}}}}}}}}}},
                "top_logprobs": {"type": "integer", "nullable": true, "minimum": 0, "maximum": 20},
                "usage": {"type": "object", "required": ["input_tokens", "output_tokens", "total_tokens"], "properties": {
                  "input_tokens": {"type": "integer", "minimum": 0}, "output_tokens": {"type": "integer", "minimum": 0},
                  "total_tokens": {"type": "integer", "minimum": 0}}}}}
            },
            "responses": {
              "Failure": {"description": "OpenAI's error body.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          },
          "security": [{"bearer": []}],
          "paths": {
            "/health": {"get": {"operationId": "health", "security": [], "responses": {
              "200": {"description": "Every model can answer (ok), or some can (degraded); each model's availability, and why not.", "content": {"application/json": {"schema": {"type": "object",
                "required": ["status", "models"], "properties": {"status": {"type": "string", "enum": ["ok", "degraded"]},
                "models": {"type": "array", "items": {"type": "object", "required": ["id", "available"], "properties": {
                  "id": {"type": "string"}, "available": {"type": "boolean"}, "reason": {"type": "string"}}}}}}}}},
              "503": {"description": "No model can answer now, and why.", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
            "/metrics": {"get": {"operationId": "metrics", "responses": {
              "200": {"description": "Prometheus's text format.", "content": {"text/plain": {"schema": {"type": "string"}}}},
              "401": {"$ref": "#/components/responses/Failure"}}}},
            "/openapi.json": {"get": {"operationId": "openapi", "security": [], "responses": {
              "200": {"description": "This document.", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
            "/v1/models": {"get": {"operationId": "listModels", "responses": {
              "200": {"description": "The served models (an adapter's parent is its base model), then the aliases (their parent is the model they name).", "content": {"application/json": {"schema": {"type": "object",
                "required": ["object", "data"], "properties": {"object": {"type": "string", "enum": ["list"]},
                "data": {"type": "array", "items": {"type": "object", "required": ["id", "object", "created", "owned_by"], "properties": {
                  "id": {"type": "string"}, "max_model_len": {"type": "integer"}, "parent": {"type": "string"}}}}}}}}},
              "401": {"$ref": "#/components/responses/Failure"}}}},
            "/v1/chat/completions": {"post": {"operationId": "createChatCompletion",
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChatCompletionRequest"}}}},
              "responses": {
                "200": {"description": "The answer, or its server-sent events when streamed.", "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/ChatCompletion"}},
                  "text/event-stream": {"schema": {"type": "string"}}}},
                "400": {"$ref": "#/components/responses/Failure"}, "401": {"$ref": "#/components/responses/Failure"},
                "404": {"$ref": "#/components/responses/Failure"}, "413": {"$ref": "#/components/responses/Failure"},
                "429": {"$ref": "#/components/responses/Failure"}, "503": {"$ref": "#/components/responses/Failure"}}}},
            "/v1/responses": {"post": {"operationId": "createResponse",
              "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResponseRequest"}}}},
              "responses": {
                "200": {"description": "The response, or its events when streamed.", "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/Response"}},
                  "text/event-stream": {"schema": {"type": "string"}}}},
                "400": {"$ref": "#/components/responses/Failure"}, "401": {"$ref": "#/components/responses/Failure"},
                "404": {"$ref": "#/components/responses/Failure"}, "413": {"$ref": "#/components/responses/Failure"},
                "429": {"$ref": "#/components/responses/Failure"}, "503": {"$ref": "#/components/responses/Failure"}}}}
          }
        }
        """#
}
