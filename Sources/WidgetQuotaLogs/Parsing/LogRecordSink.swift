/// Where a log parser delivers what it reads: events, damaged lines and notes for the reader.
///
/// The parser knows nothing of what is done with the records; the analysis implements this.
protocol LogRecordSink {
    /// Lines dropped because an identical line was just read (a duplicated export).
    var duplicateLines: Int { get set }
    /// Records one recognised event of the device named by the file (when the line names none);
    /// `fileDevice` is also the file's name, and `line` the (first) line of the record in it.
    mutating func record(_ event: LogEvent, fileDevice: String, line: Int)
    /// Records a line that could not be read; throws when the input is too damaged to go on.
    mutating func malformed(file: String, line: Int, problem: String) throws
    /// A remark about the input that a reader of the analysis should see.
    mutating func note(_ text: String)
}
