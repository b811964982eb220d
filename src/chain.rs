//! The source chain of an error, walked to its end and safe against cycles.
//!
//! An error's `source()` is code the crate does not control: a chain can be
//! thousands of links deep, and an error can name itself (or an earlier link)
//! as its source. The walk visits every link once and stops when a link comes
//! round again, so it always ends, without cutting a long chain short.
//!
//! A link is known by its address together with its vtable (the wide
//! `*const dyn Error`), not by its address alone: a wrapper whose source is
//! its own first field shares that field's address, and both must be seen.

use std::collections::HashSet;
use std::error::Error as StdError;

/// One link's identity: where it is and what type it is.
type LinkId = *const (dyn StdError + 'static);

/// The errors of `error`'s chain, outermost first: each error, then its
/// `source()`, with one addition: a custom `std::io::Error` (one made with
/// `io::Error::new` or `io::Error::other`) is followed by the error it wraps,
/// which its own `source()` skips. Each link is yielded once; the walk ends
/// at the end of the chain or where it would come back to a link it has
/// already yielded.
pub(crate) fn walk<'a>(error: &'a (dyn StdError + 'static)) -> Chain<'a> {
    Chain {
        next: Some(error),
        wrapped: None,
        seen: HashSet::new(),
    }
}

/// The iterator of [`walk`].
pub(crate) struct Chain<'a> {
    next: Option<&'a (dyn StdError + 'static)>,
    wrapped: Option<&'a (dyn StdError + 'static)>,
    seen: HashSet<LinkId>,
}

impl<'a> Chain<'a> {
    /// `link`, unless it was yielded before (then the walk is over).
    fn first_visit(
        &mut self,
        link: &'a (dyn StdError + 'static),
    ) -> Option<&'a (dyn StdError + 'static)> {
        if self.seen.insert(link as LinkId) {
            Some(link)
        } else {
            self.next = None;
            self.wrapped = None;
            None
        }
    }
}

impl<'a> Iterator for Chain<'a> {
    type Item = &'a (dyn StdError + 'static);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(wrapped) = self.wrapped.take() {
            return self.first_visit(wrapped);
        }
        let current = self.next.take()?;
        let current = self.first_visit(current)?;
        self.next = current.source();
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            self.wrapped = io
                .get_ref()
                .map(|inner| -> &(dyn StdError + 'static) { inner });
        }
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::walk;

    /// An error whose source is itself.
    #[derive(Debug)]
    struct Ouroboros;

    impl fmt::Display for Ouroboros {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("ouroboros")
        }
    }

    impl std::error::Error for Ouroboros {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(self)
        }
    }

    /// A wrapper whose source is its only field: the same address, another type.
    #[derive(Debug)]
    struct Wrapper(std::io::Error);

    impl fmt::Display for Wrapper {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("wrapper")
        }
    }

    impl std::error::Error for Wrapper {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_self_cycle_is_walked_once() {
        assert_eq!(walk(&Ouroboros).count(), 1);
    }

    #[test]
    fn a_source_at_its_wrappers_address_is_still_walked() {
        let wrapper = Wrapper(std::io::Error::from(std::io::ErrorKind::TimedOut));
        let links: Vec<_> = walk(&wrapper).collect();
        assert_eq!(links.len(), 2);
        assert!(links.get(1).is_some_and(|e| e.is::<std::io::Error>()));
    }

    #[test]
    fn a_custom_io_error_is_followed_by_what_it_wraps() {
        let io = std::io::Error::other(Ouroboros);
        let links: Vec<_> = walk(&io).collect();
        // The io::Error, then the Ouroboros it wraps; the io::Error's own
        // source() is that Ouroboros again, so the walk ends there.
        assert!(links.len() <= 3, "{} links", links.len());
        assert!(links.get(1).is_some_and(|e| e.is::<Ouroboros>()));
    }
}
