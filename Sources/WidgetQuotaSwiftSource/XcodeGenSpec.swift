import Foundation
import WidgetQuotaSupport

/// An XcodeGen project spec (`project.yml`) read as the Xcode project it generates: its targets,
/// their types, the folders and files of their `sources` (with `excludes`), and their `info` and
/// `entitlements` (a path, and the properties XcodeGen writes into that file when the tree does
/// not hold it). Files it names under `include` are read too, each with paths relative to its own
/// folder; a target several files define is merged (sources added up, settings the first given).
/// A path is taken relative to the spec's folder, or to the tree's top when it is not found there
/// (specs run with `--project-root`). `targetTemplates` a target lists are merged in.
package enum XcodeGenSpec {
    /// What reading a spec gives: the project (paths relative to the tree's top) and the property
    /// lists its `info` and `entitlements` properties generate, by path, for files absent from the tree.
    package struct Reading: Sendable {
        package var project: XcodeProject
        package var generated: [String: PropertyList]
        /// The spec files it includes (read through it).
        package var included: [String]
    }

    /// Reads the spec at `path`; `text(p)` gives a tree file's text (nil when absent), `paths` are
    /// every file of the tree (to tell folders from files and to apply `excludes`).
    package static func read(spec path: String, text: (String) -> String?, paths: [String]) throws -> Reading {
        var folders = Set<String>([""])
        for p in paths {
            var f = folder(of: p)
            while !f.isEmpty, folders.insert(f).inserted { f = folder(of: f) }
        }
        let files = Set(paths)
        func exists(_ p: String) -> Bool { files.contains(p) || folders.contains(p) }
        func resolve(_ p: String, from base: String) -> String {
            let local = normalize(base.isEmpty ? p : base + "/" + p)
            return exists(local) || base.isEmpty ? local : (exists(normalize(p)) ? normalize(p) : local)
        }

        // The spec and its includes, included files first (the spec's own keys win).
        var specs = [(base: String, spec: [String: PropertyList])]()
        var seen = Set<String>()
        func load(_ specPath: String) throws {
            guard seen.insert(specPath).inserted, seen.count <= 64, let body = text(specPath) else { return }
            let spec = try YAMLSubset.parse(body, file: specPath).dictionary ?? [:]
            let base = folder(of: specPath)
            // `include: a.yml`, a list of paths, or of `{path:, enable:}`.
            for entry in spec["include"].map({ $0.array ?? [$0] }) ?? [] {
                guard let included = entry.string ?? entry["path"]?.string, entry["enable"]?.bool != false else { continue }
                try load(resolve(included, from: base))
            }
            specs.append((base, spec))
        }
        try load(path)

        var templates = [String: (base: String, body: [String: PropertyList])]()
        var order = [String]()
        var definitions = [String: [(base: String, body: [String: PropertyList])]]()
        for (base, spec) in specs {
            for (name, body) in spec["targetTemplates"]?.dictionary ?? [:] { templates[name] = (base, body.dictionary ?? [:]) }
            for (name, body) in (spec["targets"]?.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                if definitions[name] == nil { order.append(name) }
                definitions[name, default: []].append((base, body.dictionary ?? [:]))
            }
        }

        var targets = [XcodeProject.XcodeTarget]()
        var generated = [String: PropertyList]()
        for name in order {
            var parts = definitions[name] ?? []
            // Templates first (those a template lists before it), with `${target_name}` filled in.
            var listed = parts.flatMap { $0.body["templates"]?.strings ?? [] }
            var seenTemplates = Set<String>()
            var k = 0
            while k < listed.count && k < 32 {
                defer { k += 1 }
                guard seenTemplates.insert(listed[k]).inserted, let t = templates[listed[k]] else { continue }
                listed += t.body["templates"]?.strings ?? []
                parts.insert((t.base, substitute(t.body, target: name)), at: 0)
            }
            var type: String?
            var sourceFiles = [String]()
            var sourceFolders = [String]()
            var excluded = Set<String>()
            var info: String?
            var entitlements: String?
            var infoProperties = [String: PropertyList]()
            var entitlementProperties = [String: PropertyList]()
            // The spec's own definition (last) decides a setting both give.
            for (base, body) in parts.reversed() {
                type = type ?? body["type"]?.string
                for source in sources(body["sources"]) {
                    let resolved = resolve(source.path, from: base)
                    if files.contains(resolved) {
                        sourceFiles.append(resolved)
                    } else {
                        sourceFolders.append(resolved)
                        let prefix = resolved.isEmpty ? "" : resolved + "/"
                        let under = source.excludes.isEmpty ? [] : paths.filter { $0.hasPrefix(prefix) }
                        for pattern in source.excludes {
                            let glob = Glob(pattern)
                            for p in under where glob.matches(String(p.dropFirst(prefix.count))) { excluded.insert(p) }
                        }
                    }
                }
                if info == nil, let p = body["info"]?["path"]?.string { info = resolve(p, from: base) }
                if entitlements == nil, let p = body["entitlements"]?["path"]?.string { entitlements = resolve(p, from: base) }
                let settings = body["settings"]?["base"] ?? body["settings"]
                if info == nil, let p = settings?["INFOPLIST_FILE"]?.string { info = resolve(p, from: base) }
                if entitlements == nil, let p = settings?["CODE_SIGN_ENTITLEMENTS"]?.string { entitlements = resolve(p, from: base) }
                merge(&infoProperties, body["info"]?["properties"]?.dictionary ?? [:])
                merge(&entitlementProperties, body["entitlements"]?["properties"]?.dictionary ?? [:])
            }
            // Properties XcodeGen writes when the file is not in the tree (a generated file not
            // committed); a target without a path gets one under its name.
            if !infoProperties.isEmpty {
                let p = info ?? "\(name)/Info.plist"
                info = p
                if !files.contains(p) { generated[p] = .dictionary(infoProperties) }
            }
            if !entitlementProperties.isEmpty {
                let p = entitlements ?? "\(name)/\(name).entitlements"
                entitlements = p
                if !files.contains(p) { generated[p] = .dictionary(entitlementProperties) }
            }
            var target = XcodeProject.XcodeTarget(
                name: name, productType: productType(type ?? ""), sourceFiles: sourceFiles.sorted(), folders: sourceFolders,
                infoPlist: info, entitlements: entitlements)
            target.excludedFiles = excluded
            targets.append(target)
        }
        return Reading(
            project: XcodeProject(targets: targets, base: ""), generated: generated, included: seen.filter { $0 != path }.sorted())
    }

    /// A template's body with `${target_name}` replaced by the target's name in every string.
    static func substitute(_ body: [String: PropertyList], target: String) -> [String: PropertyList] {
        func fill(_ value: PropertyList) -> PropertyList {
            switch value {
            case .string(let s): return .string(s.replacingOccurrences(of: "${target_name}", with: target))
            case .array(let a): return .array(a.map(fill))
            case .dictionary(let d): return .dictionary(d.mapValues(fill))
            default: return value
            }
        }
        return body.mapValues(fill)
    }

    /// XcodeGen's target types as Xcode's product types.
    static func productType(_ type: String) -> String {
        switch type {
        case "application": return "com.apple.product-type.application"
        case "app-extension": return "com.apple.product-type.app-extension"
        case "extensionkit-extension": return "com.apple.product-type.extensionkit-extension"
        case "framework": return "com.apple.product-type.framework"
        case "library.static": return "com.apple.product-type.library.static"
        case "bundle.unit-test": return "com.apple.product-type.bundle.unit-test"
        case "bundle.ui-testing": return "com.apple.product-type.bundle.ui-testing"
        case "watchkit2-extension": return "com.apple.product-type.watchkit2-extension"
        default: return type.isEmpty ? "com.apple.product-type.unknown" : "com.apple.product-type." + type
        }
    }

    /// A target's `sources`: a path, a list of paths, or of `{path:, excludes:}`.
    static func sources(_ value: PropertyList?) -> [(path: String, excludes: [String])] {
        guard let value else { return [] }
        if let s = value.string { return [(s, [])] }
        return (value.array ?? []).compactMap { entry in
            if let s = entry.string { return (s, []) }
            guard let p = entry["path"]?.string else { return nil }
            return (p, entry["excludes"]?.strings ?? [])
        }
    }

    /// Adds `extra`'s keys to `base`, merging dictionaries both hold.
    static func merge(_ base: inout [String: PropertyList], _ extra: [String: PropertyList]) {
        for (key, value) in extra {
            if let a = base[key]?.dictionary, let b = value.dictionary {
                var merged = a
                merge(&merged, b)
                base[key] = .dictionary(merged)
            } else if base[key] == nil {
                base[key] = value
            }
        }
    }

    /// A glob of XcodeGen's `excludes` (`*`, `**`, `?`) against a path relative to the source
    /// folder; a pattern without a wildcard also takes everything under the folder it names.
    package static func matches(_ path: String, _ pattern: String) -> Bool { Glob(pattern).matches(path) }

    /// An `excludes` pattern, compiled once.
    struct Glob {
        let pattern: String
        let regex: NSRegularExpression?

        init(_ pattern: String) {
            self.pattern = pattern
            guard pattern.contains("*") || pattern.contains("?") else {
                regex = nil
                return
            }
            var text = "^"
            var chars = Array(pattern)[...]
            while let c = chars.popFirst() {
                switch c {
                case "*":
                    if chars.first == "*" {
                        chars.removeFirst()
                        if chars.first == "/" { chars.removeFirst() }
                        text += "(.*/)?" + (chars.isEmpty ? ".*" : "")
                    } else {
                        text += "[^/]*"
                    }
                case "?": text += "[^/]"
                default: text += NSRegularExpression.escapedPattern(for: String(c))
                }
            }
            regex = try? NSRegularExpression(pattern: text + "(/.*)?$")
        }

        func matches(_ path: String) -> Bool {
            guard let regex else { return path == pattern || path.hasPrefix(pattern + "/") }
            return regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `a/./b/../c` → `a/c`; `.` → "".
    package static func normalize(_ path: String) -> String {
        var out = [Substring]()
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == "..", !out.isEmpty { out.removeLast() } else { out.append(part) }
        }
        return out.joined(separator: "/")
    }
}
