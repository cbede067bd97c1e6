import Foundation

/// The json delegate's files, read back by JSONSerialization and validated against
/// Plugins/JSONFile/schema with python3-jsonschema (an independent validator).
public enum JSONDelegateFiles {
    public static var schemaDirectory: String { Paths.packageRoot + "/Plugins/JSONFile/schema" }

    /// The state file as an object; nil when missing or not one whole JSON object.
    public static func state(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Every line of the events file as an object; throws naming the first line that is not one
    /// (or a file that does not end with a newline: a line cut short).
    public static func events(_ path: String) throws -> [[String: Any]] {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        if let last = data.last, last != UInt8(ascii: "\n") {
            throw TestError.failed("\(path) does not end with a whole line")
        }
        return try data.split(separator: UInt8(ascii: "\n")).enumerated().map { number, line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
                throw TestError.failed("\(path) line \(number + 1) is not a JSON object: \(String(decoding: line.prefix(300), as: UTF8.self))")
            }
            return object
        }
    }

    /// The validator's complaints about `file` ("" when valid). Kind "now-playing": one object;
    /// "events": one object per line.
    public static func schemaErrors(kind: String, file: String) throws -> String {
        try schemaErrors([(kind, file)])
    }

    /// The same for several files in one python3 run.
    public static func schemaErrors(_ files: [(kind: String, file: String)]) throws -> String {
        let r = try Shell.run(["python3", "-c", validator, schemaDirectory] + files.flatMap { [$0.kind, $0.file] }, timeout: 60)
        if r.status == 0 { return "" }
        return r.stdout + r.stderr + (r.stdout.isEmpty && r.stderr.isEmpty ? "exit \(r.status)" : "")
    }

    /// Works with python3-jsonschema 4.10 (Debian 12: RefResolver) and newer (referencing).
    static let validator = """
        import json, sys, jsonschema
        schema_dir, pairs = sys.argv[1], sys.argv[2:]
        schemas = {n: json.load(open(f"{schema_dir}/{n}.schema.json")) for n in ("now-playing", "events")}
        V = jsonschema.Draft202012Validator
        for s in schemas.values(): V.check_schema(s)
        def validator(kind):
            try:
                from referencing import Registry, Resource
                registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
                return V(schemas[kind], registry=registry)
            except ImportError:
                store = {s["$id"]: s for s in schemas.values()}
                return V(schemas[kind], resolver=jsonschema.RefResolver.from_schema(schemas[kind], store=store))
        errors = []
        for kind, path in zip(pairs[0::2], pairs[1::2]):
            text = open(path, encoding="utf-8").read()
            documents = [json.loads(l) for l in text.splitlines() if l.strip()] if kind == "events" else [json.loads(text)]
            v = validator(kind)
            errors += [f"{path} document {i}: {e.json_path}: {e.message}" for i, d in enumerate(documents) for e in v.iter_errors(d)]
            if not documents: errors.append(f"{path}: no documents")
        print("\\n".join(errors[:20]))
        sys.exit(1 if errors else 0)

        """
}
