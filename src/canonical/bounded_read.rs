//! Reading the bytes of a part from a file or a reader, under a limit.
//!
//! Nothing here trusts what it reads from: a file's size may change (or be
//! a sparse hole far larger than memory), a path may be swapped for a named
//! pipe between any check and the open, and a reader may report more bytes
//! than the buffer it was handed. Memory grows with what is actually read
//! (at most doubling), an allocation that fails is an error, and a file is
//! opened without blocking and checked after it is open.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use bytes::Bytes;

use super::part_error::shorten;
use super::{PartError, PartLimit};

/// The first step a buffer grows by, and the least it ever grows by.
const STEP: usize = 64 * 1024;

/// Where the bytes of a part came from, as a size error names it.
#[derive(Clone, Copy)]
pub(crate) enum BytesFrom<'a> {
    /// Bytes handed over whole.
    Data,
    /// A reader drained to its end.
    Reader,
    /// A file, shown by its (shortened) path.
    File(&'a str),
    /// The base64 of a part being parsed, or of a `data:` URL.
    Encoded(&'static str),
}

impl fmt::Display for BytesFrom<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BytesFrom::Data => f.write_str("the data"),
            BytesFrom::Reader => f.write_str("the reader's data"),
            BytesFrom::File(path) => write!(f, "`{path}`"),
            BytesFrom::Encoded(what) => f.write_str(what),
        }
    }
}

/// A path as an error message shows it: its display form, cut like every
/// other echoed value.
pub(crate) fn shown(path: &Path) -> String {
    shorten(&path.display().to_string())
}

/// Reads a regular file under `limit`, refusing it from the opened file's
/// metadata when it is over the limit, before any byte is read.
///
/// The file is opened without blocking (a named pipe swapped in for the
/// path opens at once instead of waiting for a writer), and the opened
/// file, not the path, must be a regular file.
pub(crate) fn read_file(limit: PartLimit, path: &Path) -> Result<Bytes, PartError> {
    let shown = shown(path);
    let read_error = |source| PartError::Read {
        path: shown.clone(),
        source,
    };
    let not_a_file = || PartError::NotAFile {
        path: shown.clone(),
    };
    // A cheap early answer for a directory or a device; the check that
    // counts is on the opened file below.
    if !std::fs::metadata(path).map_err(read_error)?.is_file() {
        return Err(not_a_file());
    }
    let file = open_without_blocking(path).map_err(read_error)?;
    let metadata = file.metadata().map_err(read_error)?;
    if !metadata.is_file() {
        return Err(not_a_file());
    }
    let source = BytesFrom::File(&shown);
    limit.check(source, metadata.len())?;
    read_to_limit(limit, file, metadata.len(), source)
}

/// Opens `path` for reading without blocking on it: a FIFO or a device
/// planted where a file was expected opens at once (and is then refused
/// by its metadata), where a plain open would wait for a writer forever.
#[cfg(unix)]
pub(crate) fn open_without_blocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
pub(crate) fn open_without_blocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Reads `reader` to its end, or to one byte past the limit, whichever
/// comes first, so a growing file or an endless reader cannot run the
/// process out of memory.
///
/// `size_hint` (a file's length) steers how the buffer grows but never
/// reserves memory by itself: each step at most doubles what has been read.
/// A count the reader reports beyond the buffer it was given is an error,
/// not trusted.
pub(crate) fn read_to_limit(
    limit: PartLimit,
    mut reader: impl Read,
    size_hint: u64,
    source: BytesFrom<'_>,
) -> Result<Bytes, PartError> {
    let fail = |err: io::Error| match source {
        BytesFrom::File(path) => PartError::Read {
            path: path.to_owned(),
            source: err,
        },
        BytesFrom::Data | BytesFrom::Reader | BytesFrom::Encoded(_) => PartError::Reader {
            what: "reader",
            source: err,
        },
    };
    let most = limit.max_bytes().saturating_add(1);
    let mut buffer: Vec<u8> = Vec::new();
    let mut filled = 0usize;
    loop {
        let read_so_far = filled as u64;
        if read_so_far >= most {
            break;
        }
        if filled == buffer.len() {
            // At the expected end (or with no room yet), probe with a small
            // stack buffer first, so a file read whole never grows the
            // buffer just to learn that it has ended.
            let mut probe = [0u8; 32];
            let probe_len = usize::try_from(most - read_so_far).map_or(32, |left| left.min(32));
            let probe = probe.get_mut(..probe_len).unwrap_or_default();
            let n = read_some(&mut reader, probe).map_err(fail)?;
            if n == 0 {
                break;
            }
            let got = probe.get(..n).unwrap_or_default();
            let wanted = grow_by(filled, size_hint, most);
            grow(&mut buffer, wanted.max(n), source)?;
            if let Some(room) = buffer.get_mut(filled..filled.saturating_add(n)) {
                room.copy_from_slice(got);
            }
            filled += n;
            continue;
        }
        let room = buffer.get_mut(filled..).unwrap_or_default();
        let n = read_some(&mut reader, room).map_err(fail)?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    buffer.truncate(filled);
    limit.check(source, filled as u64)?;
    Ok(Bytes::from(buffer))
}

/// One `read`, retried when interrupted, with the count checked against the
/// buffer: a reader that claims more than it was given is broken.
fn read_some(reader: &mut impl Read, room: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(room) {
            Ok(n) if n > room.len() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the reader reported {n} bytes read into a buffer of {} bytes",
                        room.len()
                    ),
                ));
            }
            Ok(n) => return Ok(n),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// How much to grow a buffer holding `filled` bytes: toward the size hint,
/// but never more than doubling, at least [`STEP`], and never past `most`.
fn grow_by(filled: usize, size_hint: u64, most: u64) -> usize {
    let filled64 = filled as u64;
    let doubling = filled64.max(STEP as u64);
    let toward_hint = size_hint.saturating_sub(filled64);
    let step = if toward_hint > 0 {
        toward_hint.min(doubling)
    } else {
        doubling
    };
    let step = step.min(most.saturating_sub(filled64)).max(1);
    usize::try_from(step).unwrap_or(STEP)
}

/// Grows `buffer` by `by` zeroed bytes; an allocation that fails is an error.
fn grow(buffer: &mut Vec<u8>, by: usize, source: BytesFrom<'_>) -> Result<(), PartError> {
    let total = buffer.len().saturating_add(by);
    buffer
        .try_reserve_exact(by)
        .map_err(|err| PartError::OutOfMemory {
            what: source.to_string(),
            bytes: total as u64,
            source: err,
        })?;
    buffer.resize(total, 0);
    Ok(())
}
