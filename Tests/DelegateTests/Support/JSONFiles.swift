import Foundation
import MotetTestSupport

/// Reading the json delegate's files back, and validating them against the JSON Schemas in
/// Plugins/JSONFile/schema with python3-jsonschema (a real, independent validator).
enum JSONFiles {
    static var schemaDirectory: String { Paths.packageRoot + "/Plugins/JSONFile/schema" }

    /// The state file as an object; nil when missing or not one whole JSON object.
    static func state(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The events file, one object per line; throws on a line that is not JSON.
    static func events(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestError.failed("not an object: \(line)")
            }
            return object
        }
    }

    /// Validates `file` (kind "now-playing": one object; "events": one object per line) and returns
    /// the validator's complaints ("" when valid).
    static func schemaErrors(kind: String, file: String) throws -> String {
        let r = try Shell.run(["python3", "-c", validator, schemaDirectory, kind, file], timeout: 60)
        if r.status == 0 { return "" }
        return r.stdout + r.stderr + (r.stdout.isEmpty && r.stderr.isEmpty ? "exit \(r.status)" : "")
    }

    /// Works with python3-jsonschema 4.10 (Debian 12: RefResolver) and newer (referencing).
    static let validator = """
        import json, sys, jsonschema
        schema_dir, kind, path = sys.argv[1:4]  # python3 -c SCRIPT ARGS: argv[0] is "-c"
        schemas = {n: json.load(open(f"{schema_dir}/{n}.schema.json")) for n in ("now-playing", "events")}
        V = jsonschema.Draft202012Validator
        for s in schemas.values(): V.check_schema(s)
        try:
            from referencing import Registry, Resource
            registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
            validator = V(schemas[kind], registry=registry)
        except ImportError:
            store = {s["$id"]: s for s in schemas.values()}
            validator = V(schemas[kind], resolver=jsonschema.RefResolver.from_schema(schemas[kind], store=store))
        text = open(path, encoding="utf-8").read()
        documents = [json.loads(l) for l in text.splitlines() if l.strip()] if kind == "events" else [json.loads(text)]
        errors = [f"document {i}: {e.json_path}: {e.message}" for i, d in enumerate(documents) for e in validator.iter_errors(d)]
        if not documents: errors.append("no documents")
        print("\\n".join(errors[:20]))
        sys.exit(1 if errors else 0)

        """
}
