//! Error chains of any shape for the tests: any depth, I/O errors along the
//! way, ending in nothing, an I/O error, `Cancelled`, or a link back to an
//! earlier error (a cycle). The links are leaked so that they can name each
//! other as `'static` sources.
#![allow(dead_code)]

use std::error::Error;
use std::fmt;
use std::io::ErrorKind;
use std::sync::OnceLock;

use toolresult::retry::Cancelled;

type Static = &'static (dyn Error + Send + Sync + 'static);

/// One error of a chain, before the chain is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An error of this file's own type.
    Plain,
    /// A custom `std::io::Error` of this kind wrapping an error of this
    /// file's type, whose source is the next step.
    Io(ErrorKind),
}

/// How a chain ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The last step has no source.
    Nothing,
    /// A plain `std::io::Error` of this kind.
    Io(ErrorKind),
    /// `Cancelled`.
    Cancelled,
    /// The last step's source is the step at this index (taken modulo the
    /// number of steps): a cycle.
    BackTo(usize),
}

/// A link whose source is set once the chain is built.
#[derive(Debug, Default)]
pub struct Link {
    next: OnceLock<Static>,
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a link of a test chain")
    }
}

impl Error for Link {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        let next: &(dyn Error + 'static) = *self.next.get()?;
        Some(next)
    }
}

/// The outermost error of a built chain, owned, so that it can be handed to
/// `Failure::unexpected`, `anyhow` or `?`.
#[derive(Debug, Clone, Copy)]
pub struct Head(pub Static);

impl fmt::Display for Head {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the head of a test chain")
    }
}

impl Error for Head {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(self.0)
    }
}

/// Builds the chain `steps` then `end` behind a [`Head`].
pub fn build(steps: &[Step], end: End) -> Head {
    let mut nodes: Vec<Static> = Vec::with_capacity(steps.len());
    let mut setters: Vec<&'static Link> = Vec::with_capacity(steps.len());
    for step in steps {
        match *step {
            Step::Plain => {
                let link: &'static Link = Box::leak(Box::default());
                nodes.push(link);
                setters.push(link);
            }
            Step::Io(kind) => {
                // The io::Error owns its inner error, so the inner link is
                // a forwarder whose source is set like any other link's.
                let forward: &'static Link = Box::leak(Box::default());
                let io: &'static std::io::Error =
                    Box::leak(Box::new(std::io::Error::new(kind, Forward(forward))));
                nodes.push(io);
                setters.push(forward);
            }
        }
    }
    let end: Option<Static> = match end {
        End::Nothing => None,
        End::Io(kind) => Some(Box::leak(Box::new(std::io::Error::from(kind)))),
        End::Cancelled => Some(Box::leak(Box::new(Cancelled))),
        End::BackTo(_) if nodes.is_empty() => None,
        End::BackTo(at) => Some(nodes[at % nodes.len()]),
    };
    for (i, setter) in setters.iter().enumerate() {
        let next = if i + 1 < nodes.len() {
            Some(nodes[i + 1])
        } else {
            end
        };
        if let Some(next) = next {
            setter.next.set(next).unwrap();
        }
    }
    match nodes.first() {
        Some(first) => Head(*first),
        None => Head(end.unwrap_or(Box::leak(Box::<Link>::default()))),
    }
}

/// The inner error of a custom io::Error: its source is the link's.
#[derive(Debug)]
struct Forward(&'static Link);

impl fmt::Display for Forward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("forwards to a link")
    }
}

impl Error for Forward {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

/// The kind of the first I/O error of the chain, by the spec alone.
pub fn first_io_kind(steps: &[Step], end: End) -> Option<ErrorKind> {
    steps
        .iter()
        .find_map(|step| match step {
            Step::Io(kind) => Some(*kind),
            Step::Plain => None,
        })
        .or(match end {
            End::Io(kind) => Some(kind),
            _ => None,
        })
}

/// The retry classification of the chain, by the spec alone: `Some(true)`
/// transient, `Some(false)` permanent, `None` unknown. The table is the one
/// the retry docs publish.
pub fn expected_transient(steps: &[Step], end: End) -> Option<bool> {
    let kinds = steps
        .iter()
        .filter_map(|step| match step {
            Step::Io(kind) => Some(*kind),
            Step::Plain => None,
        })
        .chain(match end {
            End::Io(kind) => Some(kind),
            _ => None,
        });
    for kind in kinds {
        match kind {
            ErrorKind::TimedOut
            | ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::ConnectionRefused
            | ErrorKind::Interrupted
            | ErrorKind::WouldBlock
            | ErrorKind::BrokenPipe
            | ErrorKind::NotConnected => return Some(true),
            ErrorKind::InvalidData
            | ErrorKind::InvalidInput
            | ErrorKind::NotFound
            | ErrorKind::PermissionDenied
            | ErrorKind::Unsupported => return Some(false),
            _ => {}
        }
    }
    None
}
