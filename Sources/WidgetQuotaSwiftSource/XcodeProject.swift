import Foundation
import WidgetQuotaSupport

/// The parts of an Xcode project (`project.pbxproj`) that say which files belong to which
/// target, and where each target's Info.plist and entitlements are.
package struct XcodeProject: Sendable, Equatable {
    /// A native target.
    package struct XcodeTarget: Sendable, Equatable {
        package var name: String
        /// `com.apple.product-type.application`, `com.apple.product-type.app-extension`, …
        package var productType: String
        /// Source files of its Sources build phase, relative to the project's folder (the
        /// folder holding the `.xcodeproj`), sorted.
        package var sourceFiles: [String]
        /// Folders that belong to it whole (Xcode 16 synchronized folders), relative to the
        /// project's folder.
        package var folders: [String]
        /// `INFOPLIST_FILE` and `CODE_SIGN_ENTITLEMENTS` of its build configurations (first
        /// configuration that sets them), relative to the project's folder, `$(SRCROOT)/` removed.
        package var infoPlist: String?
        package var entitlements: String?
        /// The `.xcconfig` files its build configurations are based on, relative to the project's
        /// folder, in configuration order (where `infoPlist` and `entitlements` are read when the
        /// project itself does not set them).
        package var baseConfigurations: [String] = []
        /// Files of its synchronized folders that an exception set takes out of it, and files of
        /// other targets' synchronized folders that one adds to it (relative to the project's folder).
        package var excludedFiles: Set<String> = []
        package var addedFiles: Set<String> = []

        /// True for an app extension or ExtensionKit extension.
        package var isExtension: Bool { productType.contains("extension") }
        /// True for an application.
        package var isApplication: Bool { productType == "com.apple.product-type.application" }

        /// True when `path` (relative to the project's folder) is one of its files, or under one
        /// of its folders and not taken out by an exception set, or added by one.
        package func contains(_ path: String) -> Bool {
            if sourceFiles.contains(path) || addedFiles.contains(path) { return true }
            return folders.contains { path.hasPrefix($0 + "/") } && !excludedFiles.contains(path)
        }
    }

    /// Targets in the project's order.
    package var targets: [XcodeTarget]
    /// The tree folder its paths are relative to; nil for the folder holding the `.xcodeproj`
    /// (an XcodeGen spec's paths are relative to the tree's top: "").
    package var base: String? = nil
    /// What the reading noticed: groups that contain each other (a cycle), which Xcode would
    /// refuse; files are placed as if the link that closes each cycle were absent.
    package var notes: [String] = []

    /// A project of these targets, with paths relative to the tree folder `base`.
    package init(targets: [XcodeTarget], base: String) {
        self.targets = targets
        self.base = base
    }

    /// Reads the text of a `project.pbxproj`; errors name `file` and a line.
    package static func parse(_ bytes: [UInt8], file: String) throws -> XcodeProject {
        let root = try OldStylePropertyList.parse(bytes, file: file)
        guard let objects = root["objects"]?.dictionary else {
            throw WidgetQuotaError.malformedPropertyList(file: file, line: 1, expected: "an Xcode project with an 'objects' dictionary")
        }
        return XcodeProject(objects: objects)
    }

    init(objects: [String: PropertyList]) {
        let mainGroup = objects.values.first { $0["isa"]?.string == "PBXProject" }?["mainGroup"]?.string
        let links = Self.parents(objects, mainGroup: mainGroup)
        let parent = links.parent
        func label(_ id: String) -> String {
            objects[id]?["name"]?.string ?? objects[id]?["path"]?.string ?? id
        }
        notes = links.cycles.map { c in
            "project.pbxproj: the group \"\(label(c.group))\" lists \"\(label(c.child))\", which contains it: a cycle in the "
                + "project's groups (Xcode would not open it); files are placed as if that link were absent"
        }
        // An object's path: its own, under its group's, up the chain of groups to one that starts
        // a path (the project's root, an absolute path) or whose path is known. No recursion, and
        // the work is the path's length. The paths asked for, and their groups', are kept, so the
        // files of one group cost their own names (keeping every group's path on the way would
        // cost the square of a deep chain).
        var paths = [String: String?]()
        func path(of id: String) -> String? {
            if let known = paths[id] { return known }
            guard let object = objects[id] else { return nil }
            let own = object["path"]?.string
            switch object["sourceTree"]?.string ?? "<group>" {
            case "SOURCE_ROOT": return own ?? ""
            case "<absolute>": return own
            case "<group>": break
            default: return nil  // SDK and build products
            }
            var components = [String]()  // the groups' own paths, bottom up
            var base = ""  // where the topmost group hangs: the root unless a group above says otherwise
            var current = parent[id]
            var steps = 0
            walk: while let c = current, steps <= objects.count {
                steps += 1
                if let known = paths[c] {
                    base = known ?? ""
                    break walk
                }
                guard let group = objects[c] else { break walk }
                let groupOwn = group["path"]?.string
                switch group["sourceTree"]?.string ?? "<group>" {
                case "<group>":
                    if let groupOwn { components.append(groupOwn) }
                    current = parent[c]
                case "SOURCE_ROOT", "<absolute>":
                    base = groupOwn ?? ""
                    break walk
                default:
                    break walk  // a group under an SDK's hangs at the root
                }
            }
            // Each level as Xcode joins it: a group's own path under its parent's, an empty parent adding nothing.
            func joined(_ base: String, _ own: String) -> String { base.isEmpty ? own : base + "/" + own }
            let groupPath = components.reversed().reduce(base, joined)
            // `Core/../App/File.swift` is `App/File.swift` (a file outside its group's folder).
            let result = XcodeGenSpec.normalize(own.map { joined(groupPath, $0) } ?? groupPath)
            paths[id] = .some(result)
            if let g = parent[id], paths[g] == nil, (objects[g]?["sourceTree"]?.string ?? "<group>") == "<group>" {
                paths[g] = .some(groupPath)
            }
            return result
        }
        func setting(_ target: PropertyList, _ key: String) -> String? {
            guard let list = target["buildConfigurationList"]?.string, let configurations = objects[list]?["buildConfigurations"]?.strings
            else { return nil }
            for c in configurations {
                if let value = objects[c]?["buildSettings"]?[key]?.string, !value.isEmpty {
                    var v = value
                    for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"] where v.hasPrefix(prefix) {
                        v = String(v.dropFirst(prefix.count))
                    }
                    return v
                }
            }
            return nil
        }
        let projectTargets = objects.values.first { $0["isa"]?.string == "PBXProject" }?["targets"]?.strings
        let targetIDs = projectTargets ?? objects.keys.sorted().filter { objects[$0]?["isa"]?.string == "PBXNativeTarget" }
        targets = targetIDs.compactMap { id -> XcodeTarget? in
            guard let target = objects[id], target["isa"]?.string == "PBXNativeTarget" else { return nil }
            var files = [String]()
            for phase in target["buildPhases"]?.strings ?? [] where objects[phase]?["isa"]?.string == "PBXSourcesBuildPhase" {
                for buildFile in objects[phase]?["files"]?.strings ?? [] {
                    if let ref = objects[buildFile]?["fileRef"]?.string, let p = path(of: ref) { files.append(p) }
                }
            }
            let groups = target["fileSystemSynchronizedGroups"]?.strings ?? []
            let folders = groups.compactMap { path(of: $0) }
            // Xcode 16 exception sets: in a folder of this target, the files they list are not
            // its members; in another target's folder, they are.
            var excluded = Set<String>()
            var added = Set<String>()
            for (groupID, group) in objects where group["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" {
                guard let folder = path(of: groupID) else { continue }
                for exceptionID in group["exceptions"]?.strings ?? [] {
                    guard let exception = objects[exceptionID],
                        exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
                        exception["target"]?.string == id
                    else { continue }
                    let listed = (exception["membershipExceptions"]?.strings ?? []).map { folder.isEmpty ? $0 : folder + "/" + $0 }
                    if groups.contains(groupID) { excluded.formUnion(listed) } else { added.formUnion(listed) }
                }
            }
            let configurations = target["buildConfigurationList"]?.string.flatMap { objects[$0]?["buildConfigurations"]?.strings } ?? []
            let bases = configurations.compactMap { objects[$0]?["baseConfigurationReference"]?.string }.compactMap { path(of: $0) }
            return XcodeTarget(
                name: target["name"]?.string ?? id, productType: target["productType"]?.string ?? "",
                sourceFiles: Array(Set(files)).sorted(), folders: folders.sorted(),
                infoPlist: setting(target, "INFOPLIST_FILE"), entitlements: setting(target, "CODE_SIGN_ENTITLEMENTS"),
                baseConfigurations: bases.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } },
                excludedFiles: excluded, addedFiles: added)
        }
    }
}

extension XcodeProject {
    /// Each object's parent group: first breadth-first from the project's main group, so each
    /// group hangs where the root reaches it first, then, for groups the root does not reach, the
    /// first group (by id) that lists them. A group listed by one of its own descendants closes a
    /// cycle: that link is left out and returned. Linear in the objects and links: ancestry in the
    /// main group's tree is read from entry and exit times, and the other groups' cycles from one
    /// walk over the parent links.
    static func parents(
        _ objects: [String: PropertyList], mainGroup: String?
    ) -> (parent: [String: String], cycles: [(group: String, child: String)]) {
        var parent = [String: String]()
        var cycles = [(group: String, child: String)]()
        var reached = Set<String>()
        if let mainGroup, objects[mainGroup] != nil {
            var queue = [mainGroup]
            reached.insert(mainGroup)
            var children = [String: [String]]()
            var repeated = [(group: String, child: String)]()
            var k = 0
            while k < queue.count {
                let g = queue[k]
                k += 1
                for child in objects[g]?["children"]?.strings ?? [] {
                    guard reached.insert(child).inserted else {
                        repeated.append((g, child))
                        continue
                    }
                    parent[child] = g
                    children[g, default: []].append(child)
                    queue.append(child)
                }
            }
            // Entry and exit times of the tree, without recursion: `a` is an ancestor of `g`
            // (or `g` itself) when its interval holds `g`'s.
            var enter = [String: Int]()
            var exit = [String: Int]()
            var clock = 0
            var stack: [(id: String, next: Int)] = [(mainGroup, 0)]
            enter[mainGroup] = 0
            while let top = stack.last {
                let kids = children[top.id] ?? []
                if top.next < kids.count {
                    stack[stack.count - 1].next += 1
                    clock += 1
                    enter[kids[top.next]] = clock
                    stack.append((kids[top.next], 0))
                } else {
                    clock += 1
                    exit[top.id] = clock
                    stack.removeLast()
                }
            }
            for (g, child) in repeated {
                if let a = enter[child], let b = exit[child], let e = enter[g], a <= e, e <= b { cycles.append((g, child)) }
            }
        }
        // Groups the root does not reach: the first lister by id, then each cycle among those
        // links broken at the link made last (the lister with the greatest id).
        var lister = [String: String]()
        for (id, object) in objects.sorted(by: { $0.key < $1.key }) {
            guard (object["isa"]?.string ?? "").hasSuffix("Group") else { continue }
            for child in object["children"]?.strings ?? [] where parent[child] == nil && child != mainGroup && lister[child] == nil {
                lister[child] = id
            }
        }
        // 0 unvisited, 1 on the current walk, 2 done.
        var state = [String: Int]()
        for start in lister.keys.sorted() where state[start] == nil {
            var walk = [String]()
            var current: String? = start
            while let c = current, state[c] == nil {
                state[c] = 1
                walk.append(c)
                current = lister[c]
            }
            if let c = current, state[c] == 1, let from = walk.firstIndex(of: c) {
                let cycle = walk[from...]
                let closing = cycle.max { lister[$0]! < lister[$1]! }!
                cycles.append((lister[closing]!, closing))
                lister[closing] = nil
            }
            for c in walk { state[c] = 2 }
        }
        for (child, group) in lister { parent[child] = group }
        return (parent, cycles)
    }
}

/// The old-style ASCII property list of `project.pbxproj`: `{ key = value; }`, `( a, b, )`,
/// quoted strings with escapes, `/* comments */`, `// comments` and unquoted words.
package enum OldStylePropertyList {
    /// Parses `bytes`; every value is a dictionary, an array or a string.
    package static func parse(_ bytes: [UInt8], file: String) throws -> PropertyList {
        var reader = OldStylePropertyListReader(b: bytes, file: file)
        if reader.b.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        try reader.skip()
        let value = try reader.value(depth: 0)
        try reader.skip()
        if reader.i < reader.b.count { throw reader.fail("nothing after the top-level value") }
        return value
    }
}

private struct OldStylePropertyListReader {
    let b: [UInt8]
    let file: String
    var i = 0
    var line = 1

    func fail(_ expected: String, line: Int? = nil) -> WidgetQuotaError {
        .malformedPropertyList(file: file, line: line ?? self.line, expected: expected)
    }

    mutating func advance() {
        if b[i] == 0x0A { line += 1 }
        i += 1
    }

    /// Skips whitespace and comments (the `// !$*UTF8*$!` header is one).
    mutating func skip() throws {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                advance()
            } else if c == 0x2F && i + 1 < b.count && b[i + 1] == 0x2F {
                while i < b.count && b[i] != 0x0A { advance() }
            } else if c == 0x2F && i + 1 < b.count && b[i + 1] == 0x2A {
                let start = line
                advance()
                advance()
                while i < b.count && !(b[i] == 0x2A && i + 1 < b.count && b[i + 1] == 0x2F) { advance() }
                guard i < b.count else { throw fail("*/ to end the comment", line: start) }
                advance()
                advance()
            } else {
                return
            }
        }
    }

    static func isWordByte(_ c: UInt8) -> Bool {
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2E, 0x2F, 0x3A, 0x2D, 0x2B, 0x7E: return true
        default: return c >= 0x80
        }
    }

    mutating func value(depth: Int) throws -> PropertyList {
        guard depth < PropertyList.maximumDepth else { throw fail("at most \(PropertyList.maximumDepth) nested values") }
        guard i < b.count else { throw fail("a value, found the end of the file") }
        switch b[i] {
        case 0x7B:
            let open = line
            advance()
            var d = [String: PropertyList]()
            while true {
                try skip()
                guard i < b.count else { throw fail("'}' to close the dictionary opened on line \(open)") }
                if b[i] == 0x7D {
                    advance()
                    return .dictionary(d)
                }
                guard case .string(let key) = try scalar() else { throw fail("a key") }
                try skip()
                guard i < b.count, b[i] == 0x3D else { throw fail("'=' after the key \(quoted(key))") }
                advance()
                try skip()
                d[key] = try value(depth: depth + 1)
                try skip()
                guard i < b.count, b[i] == 0x3B else { throw fail("';' after the value of \(quoted(key))") }
                advance()
            }
        case 0x28:
            let open = line
            advance()
            var a = [PropertyList]()
            while true {
                try skip()
                guard i < b.count else { throw fail("')' to close the list opened on line \(open)") }
                if b[i] == 0x29 {
                    advance()
                    return .array(a)
                }
                a.append(try value(depth: depth + 1))
                try skip()
                guard i < b.count else { continue }
                if b[i] == 0x2C {
                    advance()
                } else if b[i] != 0x29 {
                    throw fail("',' or ')' in the list opened on line \(open)")
                }
            }
        default:
            return try scalar()
        }
    }

    mutating func scalar() throws -> PropertyList {
        guard i < b.count else { throw fail("a value, found the end of the file") }
        if b[i] == 0x22 {
            let start = line
            advance()
            var out = [UInt8]()
            while i < b.count && b[i] != 0x22 {
                if b[i] == 0x5C && i + 1 < b.count {
                    advance()
                    switch b[i] {
                    case 0x6E: out.append(0x0A)
                    case 0x74: out.append(0x09)
                    case 0x72: out.append(0x0D)
                    default: out.append(b[i])
                    }
                    advance()
                } else {
                    out.append(b[i])
                    advance()
                }
            }
            guard i < b.count else { throw fail("'\"' to close the string opened on line \(start)", line: start) }
            advance()
            return .string(String(decoding: out, as: UTF8.self))
        }
        let start = i
        while i < b.count && OldStylePropertyListReader.isWordByte(b[i]) {
            // `//` and `/*` start comments even right after a word.
            if b[i] == 0x2F && i + 1 < b.count && (b[i + 1] == 0x2F || b[i + 1] == 0x2A) { break }
            advance()
        }
        guard i > start else {
            throw fail(
                "a value (a word, a quoted string, '{' or '('), found \(quoted(String(decoding: b[i..<min(b.count, i + 1)], as: UTF8.self)))"
            )
        }
        return .string(String(decoding: b[start..<i], as: UTF8.self))
    }
}
