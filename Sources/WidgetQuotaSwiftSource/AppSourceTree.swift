import Foundation
import WidgetQuotaSupport

/// Which side of an app a file or target is on.
package enum SourceRole: String, Sendable, Codable, CaseIterable {
    /// The containing app (and its background tasks).
    case app
    /// The WidgetKit extension.
    case widgetExtension
    /// Neither can be told (tests, frameworks, files no target builds).
    case unknown
}

/// A Swift file of the tree, indexed.
package struct AppSwiftFile: Sendable {
    /// Relative to the folder the user named (see `AppSourceTree.load(paths:)`).
    package var path: String
    package var role: SourceRole
    /// Names of the targets that build it (empty without a project file that lists it).
    package var targets: [String]
    package var index: SwiftFileIndex
}

/// A target: from the Xcode project, or inferred from folders when there is none.
package struct AppSourceTarget: Sendable, Equatable {
    package var name: String
    package var role: SourceRole
    /// The product type from the project file, nil when inferred.
    package var productType: String?
    package var infoPlistPath: String?
    package var infoPlist: PropertyList?
    package var entitlementsPath: String?
    package var entitlements: PropertyList?
    /// Paths of its Swift files, sorted.
    package var swiftFiles: [String]

    /// Its App Group identifiers (`com.apple.security.application-groups`), as written.
    package var appGroups: [String] {
        entitlements?["com.apple.security.application-groups"]?.strings ?? []
    }

    /// A value of its Info.plist at a dotted key path (`NSExtension.NSExtensionPointIdentifier`).
    package func infoValue(_ path: String) -> PropertyList? { infoPlist?.value(at: path) }
}

/// An app's source tree as `lint` reads it: its Swift files indexed, its property lists and
/// entitlements read, and each file assigned to the app or the widget extension.
///
/// Files are found under the given folders (hidden folders, `.build`, `Pods`, `Carthage`,
/// `DerivedData` and `*.xcassets` skipped) or named directly: `.swift`, `.plist`,
/// `.entitlements` and `project.pbxproj`. Paths are relative to the folder given (with the
/// folder's own name in front when several folders are given; a file given directly keeps the
/// path as given), sorted, so every run reads the same tree in the same order.
///
/// Targets come from the `project.pbxproj` files found, each for the files under its folder (a
/// file two projects list belongs to the first). Without one, a folder whose Info.plist
/// declares `NSExtension.NSExtensionPointIdentifier` = `com.apple.widgetkit-extension`, or that
/// holds a Swift file declaring a `Widget`, `WidgetBundle` or timeline provider, is the widget
/// extension (a file at the top of the tree that declares one is in the extension alone); the
/// rest is the app.
///
/// A missing path is an `unreadable` error (exit 66); an unreadable file too. A Swift file that
/// is not UTF-8 is skipped with a note (the compiler would refuse it too). An `Info.plist` or
/// `.entitlements` file that cannot be read as an XML property list is an error; any other
/// `.plist` that cannot is skipped with a note.
package struct AppSourceTree: Sendable {
    package var swiftFiles: [AppSwiftFile]
    /// Property lists and entitlements read, by path.
    package var propertyLists: [String: PropertyList]
    /// The first Xcode project of the tree, when it has one, and its path.
    package var project: XcodeProject? { projects.first?.project }
    package var projectPath: String? { projects.first?.path }
    /// Every Xcode project of the tree, in path order: each assigns the files under its folder
    /// (a repository of several apps has several).
    package var projects: [(path: String, project: XcodeProject)] = []
    package var targets: [AppSourceTarget]
    /// Files skipped, each with the reason.
    package var notes: [String]
    /// The text of each property list and entitlements file read, by path, so a finding about a
    /// key or value can name its line.
    package var propertyListTexts: [String: String] = [:]
    /// The text of each `.xcconfig` file read, by path: targets' `INFOPLIST_FILE` and
    /// `CODE_SIGN_ENTITLEMENTS` are read there when the project does not set them.
    package var buildConfigurationTexts: [String: String] = [:]

    /// The widget extension's target, when there is one.
    package var widgetExtension: AppSourceTarget? { targets.first { $0.role == .widgetExtension } }
    /// The app's target, when there is one.
    package var app: AppSourceTarget? { targets.first { $0.role == .app } }

    /// The Swift files with `role`.
    package func swiftFiles(_ role: SourceRole) -> [AppSwiftFile] { swiftFiles.filter { $0.role == role } }

    /// The Swift file at `path`.
    package func swiftFile(_ path: String) -> AppSwiftFile? { swiftFiles.first { $0.path == path } }

    /// The most Swift source `lint` reads in one run: its index takes about forty times the
    /// source in memory (80 MB of source: 3.1 GB), so a tree past this is refused before it
    /// exhausts the machine. The largest apps read so far hold under 10 MB.
    package static let maxSwiftBytes = 64 << 20

    static func tooMuchSource(_ shown: String) -> WidgetQuotaError {
        .malformedInput(
            file: shown, line: nil,
            problem: "more than \(maxSwiftBytes >> 20) MiB of Swift source, the most lint reads in one run "
                + "(its index takes about 40 times that in memory); name the app's and the widget extension's folders")
    }

    /// Folder names never entered.
    package static let skippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData", "build"]

    /// The extension point of a WidgetKit extension's Info.plist.
    package static let widgetExtensionPoint = "com.apple.widgetkit-extension"

    /// Conformances that put a file in the widget extension.
    package static let widgetConformances: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider", "Widget", "WidgetBundle",
    ]

    /// Reads the tree under `paths` (folders and/or files).
    package static func load(paths: [String]) throws -> AppSourceTree {
        var found = [(path: String, absolute: String)]()
        let folders = paths.filter { isDirectory($0) }
        for p in paths {
            guard FileManager.default.fileExists(atPath: p) else {
                throw WidgetQuotaError.unreadable(file: p, problem: "no such file or folder")
            }
            if isDirectory(p) {
                let prefix = folders.count > 1 ? (URL(fileURLWithPath: p).standardizedFileURL.lastPathComponent + "/") : ""
                for rel in try collect(folder: p) { found.append((prefix + rel, p + "/" + rel)) }
            } else if isWanted(p) {
                found.append((p, p))
            }
        }
        found.sort { $0.path < $1.path }
        var seen = Set<String>()
        found = found.filter { seen.insert($0.path).inserted }

        var notes = [String]()
        var propertyLists = [String: PropertyList]()
        var propertyListTexts = [String: String]()
        var indexes = [(String, SwiftFileIndex)]()
        var xcconfigTexts = [String: String]()
        var yamlTexts = [String: String]()
        // The sizes first, so a tree past the bound is refused before any of it is indexed.
        var swiftBytes = 0
        for (_, absolute) in found where absolute.hasSuffix(".swift") {
            var status = stat()
            if stat(absolute, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG { swiftBytes += Int(status.st_size) }
        }
        guard swiftBytes <= maxSwiftBytes else { throw tooMuchSource(paths.count == 1 ? paths[0] : "the files named") }
        swiftBytes = 0
        var projects = [(path: String, project: XcodeProject)]()
        for (path, absolute) in found {
            // In a folder, only regular files are read: a FIFO (or a link to one) would wait for a
            // writer forever, a device might never end. Named on the command line, a FIFO is read.
            if !paths.contains(absolute), let kind = FileKind.of(absolute), kind != .regular {
                notes.append("\(path): skipped: it is \(kind.phrase), not a regular file")
                continue
            }
            // A file found in a folder that cannot be read (a dangling link, no permission) is
            // skipped with a note; one named on the command line stops the run.
            let data: Data
            do {
                data = try InputFile.contents(of: absolute, shown: path)
            } catch let error as WidgetQuotaError where !paths.contains(absolute) {
                notes.append("\(error.description) (skipped)")
                continue
            }
            let bytes = [UInt8](data)
            if path.hasSuffix(".swift") {
                swiftBytes += bytes.count
                guard swiftBytes <= maxSwiftBytes else { throw tooMuchSource(paths.count == 1 ? paths[0] : path) }
                guard String(validating: bytes, as: UTF8.self) != nil else {
                    notes.append("\(path): skipped: not UTF-8 text")
                    continue
                }
                indexes.append((path, SwiftFileIndex(path: path, tokens: SwiftLexer.tokens(utf8: bytes))))
            } else if path.hasSuffix(".xcconfig") {
                xcconfigTexts[path] = String(decoding: bytes, as: UTF8.self)
            } else if path.hasSuffix(".yml") || path.hasSuffix(".yaml") {
                yamlTexts[path] = String(decoding: bytes, as: UTF8.self)
            } else if path.hasSuffix("project.pbxproj") {
                let project = try XcodeProject.parse(bytes, file: path)
                projects.append((path, project))
                notes += project.notes.map { $0.replacingOccurrences(of: "project.pbxproj:", with: "\(path):") }
            } else {
                let essential = path.hasSuffix(".entitlements") || (path as NSString).lastPathComponent == "Info.plist"
                do {
                    propertyLists[path] = try PropertyList.parseXML(bytes, file: path)
                    propertyListTexts[path] = String(decoding: bytes, as: UTF8.self)
                } catch let error as WidgetQuotaError {
                    // One unreadable property list must not cost the whole run; an Info.plist or
                    // entitlements file skipped means the rules that read it did not see it.
                    notes.append(
                        "\(error.description) (skipped\(essential ? "; the rules that read this file did not see it, so their findings about it may be wrong" : ""))"
                    )
                }
            }
        }
        // A computed property's read runs its getter: recorded as a call wherever the tree reads one.
        let getters = Set(indexes.flatMap { $0.1.functions.filter(\.isGetter).map(\.name) })
        for k in indexes.indices { indexes[k].1.addPropertyReads(of: getters) }
        // XcodeGen specs (`project.yml`) of folders without an Xcode project: the project they generate.
        let projectFolders = Set(projects.map { Self.folder(of: Self.folder(of: $0.path)) })
        var specs = [(path: String, reading: XcodeGenSpec.Reading)]()
        for (path, _) in yamlTexts.sorted(by: { $0.key < $1.key })
        where ["project.yml", "project.yaml"].contains((path as NSString).lastPathComponent)
            && !projectFolders.contains(Self.folder(of: path))
        {
            do {
                specs.append((path, try XcodeGenSpec.read(spec: path, text: { yamlTexts[$0] }, paths: found.map(\.path))))
            } catch let error as WidgetQuotaError {
                notes.append(
                    "\(error.description) (skipped: its targets were not read, so files are placed by folder; "
                        + "fix the spec, or lint the Xcode project XcodeGen generates from it)")
            }
        }
        // A spec another spec includes is read through that one.
        let included = Set(specs.flatMap(\.reading.included))
        for (path, reading) in specs where !included.contains(path) && !reading.project.targets.isEmpty {
            projects.append((path, reading.project))
            for (p, plist) in reading.generated where propertyLists[p] == nil { propertyLists[p] = plist }
        }
        var tree = AppSourceTree(
            swiftFiles: [], propertyLists: propertyLists, targets: [], notes: notes, propertyListTexts: propertyListTexts)
        tree.projects = projects
        tree.buildConfigurationTexts = xcconfigTexts
        if !projects.isEmpty {
            tree.assignFromProjects(indexes: indexes)
        } else {
            tree.assignFromFolders(indexes: indexes)
        }
        return tree
    }

    package static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    static func isWanted(_ path: String) -> Bool {
        path.hasSuffix(".swift") || path.hasSuffix(".plist") || path.hasSuffix(".entitlements") || path.hasSuffix("/project.pbxproj")
            || path == "project.pbxproj" || path.hasSuffix(".xcconfig") || path.hasSuffix(".yml") || path.hasSuffix(".yaml")
    }

    /// Relative paths of the wanted files under `folder`, sorted.
    static func collect(folder: String) throws -> [String] {
        var out = [String]()
        var pending = [""]
        while let rel = pending.popLast() {
            let dir = rel.isEmpty ? folder : folder + "/" + rel
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: dir)
            } catch {
                throw WidgetQuotaError.unreadable(file: rel.isEmpty ? folder : rel, problem: "the folder cannot be listed")
            }
            for name in names.sorted() {
                let child = rel.isEmpty ? name : rel + "/" + name
                if isDirectory(dir + "/" + name) {
                    if name.hasPrefix(".") || skippedFolders.contains(name) || name.hasSuffix(".xcassets") { continue }
                    // A symbolic link to a folder is not followed (it could loop).
                    if (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + name)) != nil { continue }
                    pending.append(child)
                } else if isWanted(child) {
                    out.append(child)
                }
            }
        }
        return out.sorted()
    }

    /// The folder of a relative path ("" at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// True for a manifest that describes a project rather than building into it: a file that
    /// imports `ProjectDescription` (Tuist's `Project.swift`, `Workspace.swift`, `Tuist.swift`,
    /// its helpers) or `PackageDescription` (`Package.swift`).
    package static func isProjectManifest(_ path: String, _ index: SwiftFileIndex) -> Bool {
        let t = index.tokens
        return t.indices.contains { k in
            k + 1 < t.count && t[k].isKeyword("import") && (t[k + 1].text == "ProjectDescription" || t[k + 1].text == "PackageDescription")
        }
    }

    static func declaresWidget(_ index: SwiftFileIndex) -> Bool {
        index.types.contains { type in type.inherited.contains { widgetConformances.contains(String($0.split(separator: ".").last ?? "")) }
        }
    }

    mutating func assignFromProjects(indexes: [(String, SwiftFileIndex)]) {
        var memberships = [String: [String]]()
        for (path, _) in indexes { memberships[path] = [] }
        var claimed = Set<String>()
        var result = [AppSourceTarget]()
        for (projectPath, project) in projects {
            // Paths in the project are relative to the folder holding the `.xcodeproj`.
            let base = project.base ?? Self.folder(of: Self.folder(of: projectPath))
            func treePath(_ p: String) -> String { base.isEmpty ? p : base + "/" + p }
            var mine = Set<String>()
            for target in project.targets {
                // A setting the project does not make may come from the `.xcconfig` files its
                // configurations are based on (the first that sets it).
                func fromBaseConfigurations(_ key: String) -> String? {
                    for base in target.baseConfigurations {
                        let settings = BuildSettings(path: treePath(base)) { buildConfigurationTexts[$0] }
                        if let value = settings[key] { return BuildSettings.path(value, target: target.name) }
                    }
                    return nil
                }
                let info = (target.infoPlist ?? fromBaseConfigurations("INFOPLIST_FILE")).map(treePath)
                let entitlements = (target.entitlements ?? fromBaseConfigurations("CODE_SIGN_ENTITLEMENTS")).map(treePath)
                var t = AppSourceTarget(
                    name: target.name, role: .unknown, productType: target.productType, infoPlistPath: info,
                    infoPlist: info.flatMap { propertyLists[$0] }, entitlementsPath: entitlements,
                    entitlements: entitlements.flatMap { propertyLists[$0] }, swiftFiles: [])
                for (path, _) in indexes where !claimed.contains(path) {
                    let relative = base.isEmpty ? path : (path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : nil)
                    if let relative, target.contains(relative) {
                        t.swiftFiles.append(path)
                        memberships[path, default: []].append(target.name)
                        mine.insert(path)
                    }
                }
                if target.isApplication {
                    t.role = .app
                } else if target.isExtension {
                    let declared = t.infoValue("NSExtension.NSExtensionPointIdentifier")?.string == Self.widgetExtensionPoint
                    let own = Set(t.swiftFiles)
                    let widgets = indexes.contains { own.contains($0.0) && Self.declaresWidget($0.1) }
                    if declared || widgets { t.role = .widgetExtension }
                }
                result.append(t)
            }
            claimed.formUnion(mine)
        }
        targets = result
        let roleOf = Dictionary(result.map { ($0.name, $0.role) }, uniquingKeysWith: { a, _ in a })
        swiftFiles = indexes.map { path, index in
            let names = memberships[path] ?? []
            let roles = names.compactMap { roleOf[$0] }
            let role: SourceRole = roles.contains(.widgetExtension) ? .widgetExtension : roles.contains(.app) ? .app : .unknown
            return AppSwiftFile(path: path, role: role, targets: names, index: index)
        }
    }

    mutating func assignFromFolders(indexes: [(String, SwiftFileIndex)]) {
        var extensionFolders = Set<String>()
        for (path, plist) in propertyLists where (path as NSString).lastPathComponent == "Info.plist" {
            if plist.value(at: "NSExtension.NSExtensionPointIdentifier")?.string == Self.widgetExtensionPoint {
                extensionFolders.insert(Self.folder(of: path))
            }
        }
        var widgetFiles = Set<String>()
        for (path, index) in indexes where Self.declaresWidget(index) {
            widgetFiles.insert(path)
            let f = Self.folder(of: path)
            if !f.isEmpty { extensionFolders.insert(f) }
        }
        func inExtension(_ path: String) -> Bool {
            if widgetFiles.contains(path) || extensionFolders.contains("") { return true }
            return extensionFolders.contains { path.hasPrefix($0 + "/") }
        }
        swiftFiles = indexes.map { path, index in
            let role: SourceRole = Self.isProjectManifest(path, index) ? .unknown : inExtension(path) ? .widgetExtension : .app
            return AppSwiftFile(path: path, role: role, targets: [], index: index)
        }
        // The Info.plist and entitlements of each side: the shallowest such file on that side.
        func pick(_ suffix: String, extensionSide: Bool) -> String? {
            propertyLists.keys.filter { $0.hasSuffix(suffix) && inExtension($0) == extensionSide }
                .min { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        }
        var result = [AppSourceTarget]()
        let appFiles = swiftFiles.filter { $0.role == .app }.map(\.path)
        let appInfo = pick("Info.plist", extensionSide: false)
        let appEntitlements = pick(".entitlements", extensionSide: false)
        if !appFiles.isEmpty || appInfo != nil || appEntitlements != nil {
            result.append(
                AppSourceTarget(
                    name: "App", role: .app, productType: nil, infoPlistPath: appInfo, infoPlist: appInfo.flatMap { propertyLists[$0] },
                    entitlementsPath: appEntitlements, entitlements: appEntitlements.flatMap { propertyLists[$0] }, swiftFiles: appFiles))
        }
        let extensionFiles = swiftFiles.filter { $0.role == .widgetExtension }.map(\.path)
        let extensionInfo = pick("Info.plist", extensionSide: true)
        let extensionEntitlements = pick(".entitlements", extensionSide: true)
        if !extensionFiles.isEmpty || extensionInfo != nil {
            let name =
                extensionFolders.filter { !$0.isEmpty }.sorted().first.map { ($0 as NSString).lastPathComponent } ?? "WidgetExtension"
            result.append(
                AppSourceTarget(
                    name: name, role: .widgetExtension, productType: nil, infoPlistPath: extensionInfo,
                    infoPlist: extensionInfo.flatMap { propertyLists[$0] }, entitlementsPath: extensionEntitlements,
                    entitlements: extensionEntitlements.flatMap { propertyLists[$0] }, swiftFiles: extensionFiles))
        }
        targets = result
    }
}
