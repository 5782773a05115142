//! A class's accounts, made by the admin from a CSV (name, contact, group), each handed its
//! token directly or a one-time link that gives it the token once, in the student's own
//! browser; and a token given anew when a student loses one.

use super::{Ladder, NewSession, ServiceError, now_ms, require, valid_name};
use crate::auth::{hex, token_hash};
use crate::store::{Account, Role};
use serde::{Deserialize, Serialize};

/// The most rows a class list may have.
pub const CLASS_ROWS: usize = 2000;
/// How long a one-time link stays good: 14 days.
pub const LINK_MS: i64 = 14 * 24 * 3600 * 1000;

/// One student of a class list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClassMember {
    /// The account's name (1 to 48 letters, digits, `-`, `_`).
    pub name: String,
    /// An email or a student id, for the teacher's own records.
    pub contact: Option<String>,
    /// The class group (the board filters by it).
    pub group: Option<String>,
}

/// How a new or reset account gets its token.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Handout {
    /// The token itself, shown to the admin this once.
    #[default]
    Token,
    /// A one-time link (`/welcome/CODE`): the student opens it, presses its button and gets
    /// a new token, shown once, and a session.
    Link,
}

/// What an account was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Handed {
    /// The account.
    pub name: String,
    /// Its group.
    pub group: Option<String>,
    /// Its contact.
    pub contact: Option<String>,
    /// Its token (a [`Handout::Token`]).
    pub token: Option<String>,
    /// Its one-time link's code (a [`Handout::Link`]): the link is `SERVER/welcome/CODE`.
    pub link_code: Option<String>,
}

/// A class list to make accounts of.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClassImport {
    /// The students.
    pub members: Vec<ClassMember>,
    /// How each gets its token.
    #[serde(default)]
    pub handout: Handout,
}

/// A token given anew.
#[derive(Clone, Debug, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TokenReset {
    /// How the account gets its new token.
    #[serde(default)]
    pub handout: Handout,
}

/// Reads a class list: CSV rows `name[,contact[,group]]`, a first row `name,…` taken as a
/// header, blank rows skipped. Every wrong row is named, with its line.
///
/// # Errors
/// [`ServiceError::BadRequest`] listing the rows that are wrong (a name no account may have, a
/// name given twice, a field too long, too many rows, a CSV that does not read).
pub fn read_class_csv(text: &str) -> Result<Vec<ClassMember>, ServiceError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut members: Vec<ClassMember> = Vec::new();
    let mut wrong = Vec::new();
    for (i, row) in reader.records().enumerate() {
        let line = i + 1;
        let row = match row {
            Ok(row) => row,
            Err(e) => {
                wrong.push(format!("line {line}: {e}"));
                continue;
            }
        };
        let field = |k: usize| row.get(k).filter(|f| !f.is_empty()).map(str::to_owned);
        let Some(name) = field(0) else {
            continue;
        };
        if line == 1 && name.eq_ignore_ascii_case("name") {
            continue;
        }
        let (contact, group) = (field(1), field(2));
        if !valid_name(&name) {
            wrong.push(format!(
                "line {line}: a name is 1 to 48 letters, digits, '-' or '_'; not {:?}",
                name.chars().take(60).collect::<String>()
            ));
        } else if members.iter().any(|m| m.name == name) {
            wrong.push(format!("line {line}: '{name}' is given twice"));
        } else if row.len() > 3
            || ![&contact, &group]
                .into_iter()
                .flatten()
                .all(|f| valid_field(f))
        {
            wrong.push(format!(
                "line {line}: a row is name, contact, group; each at most 100 characters"
            ));
        } else {
            members.push(ClassMember {
                name,
                contact,
                group,
            });
        }
    }
    if members.len() > CLASS_ROWS {
        wrong.push(format!("{} rows: at most {CLASS_ROWS}", members.len()));
    }
    if !wrong.is_empty() {
        return Err(ServiceError::BadRequest(wrong.join("; ")));
    }
    if members.is_empty() {
        return Err(ServiceError::BadRequest("the class list has no row".into()));
    }
    Ok(members)
}

/// Whether `field` may be a contact or a group: at most 100 characters, none a control.
fn valid_field(field: &str) -> bool {
    field.chars().count() <= 100 && !field.chars().any(char::is_control)
}

/// 256 random bits, in hex.
fn code() -> String {
    hex(&rand::random::<[u8; 32]>())
}

impl Ladder {
    /// Hands account `account` its token the way `handout` says: a new token (the old one
    /// and its sessions end), or a one-time link (the old token still works until the link
    /// is used).
    async fn hand(
        &self,
        account: &Account,
        contact: Option<String>,
        handout: Handout,
    ) -> Result<Handed, ServiceError> {
        let mut handed = Handed {
            name: account.name.clone(),
            group: account.group.clone(),
            contact,
            token: None,
            link_code: None,
        };
        match handout {
            Handout::Token => {
                let token = crate::auth::new_token();
                self.store
                    .set_token(&account.name, &token_hash(&token))
                    .await?;
                handed.token = Some(token);
            }
            Handout::Link => {
                let code = code();
                let now = now_ms();
                self.store
                    .add_invite(&token_hash(&code), account.id, now, now + LINK_MS)
                    .await?;
                handed.link_code = Some(code);
            }
        }
        Ok(handed)
    }

    /// Makes an owner account for each student of `import` (the admin only), with its group
    /// and contact, and hands each its token. No account is made if any name is taken.
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::Conflict`]
    /// naming the names taken, [`ServiceError::BadRequest`] for a list
    /// [`read_class_csv`] would refuse.
    pub async fn import_class(
        &self,
        caller: &Account,
        import: &ClassImport,
    ) -> Result<Vec<Handed>, ServiceError> {
        require(caller, Role::Admin)?;
        let members = &import.members;
        if members.is_empty() || members.len() > CLASS_ROWS {
            return Err(ServiceError::BadRequest(format!(
                "a class list has 1 to {CLASS_ROWS} rows"
            )));
        }
        let mut taken = Vec::new();
        for m in members {
            if !valid_name(&m.name) {
                return Err(ServiceError::BadRequest(format!(
                    "an account's name is 1 to 48 letters, digits, '-' or '_'; not {:?}",
                    m.name.chars().take(60).collect::<String>()
                )));
            }
            let fields = [&m.contact, &m.group].into_iter().flatten();
            if !fields.into_iter().all(|f| valid_field(f)) {
                return Err(ServiceError::BadRequest(format!(
                    "{}: a contact or a group is at most 100 characters, none a control",
                    m.name
                )));
            }
            if self.store.account_by_name(&m.name).await?.is_some() {
                taken.push(m.name.as_str());
            }
        }
        if !taken.is_empty() {
            return Err(ServiceError::Conflict(format!(
                "these names have accounts already: {}",
                taken.join(", ")
            )));
        }
        let mut handed = Vec::with_capacity(members.len());
        for m in members {
            // A placeholder no one holds: the handout sets the real token (or link).
            let placeholder = token_hash(&crate::auth::new_token());
            let mut account = self
                .store
                .add_account(&m.name, Role::Owner, &placeholder, now_ms())
                .await?;
            self.store
                .set_class(&m.name, m.group.as_deref(), m.contact.as_deref())
                .await?;
            account.group.clone_from(&m.group);
            handed.push(
                self.hand(&account, m.contact.clone(), import.handout)
                    .await?,
            );
        }
        Ok(handed)
    }

    /// Gives owner account `name` a new token, or a one-time link to one (the admin only).
    ///
    /// # Errors
    /// [`ServiceError::Forbidden`] for anyone but the admin, [`ServiceError::NotFound`],
    /// [`ServiceError::BadRequest`] for the admin's own or a worker's account.
    pub async fn reset_token(
        &self,
        caller: &Account,
        name: &str,
        reset: &TokenReset,
    ) -> Result<Handed, ServiceError> {
        require(caller, Role::Admin)?;
        let account = self
            .store
            .account_by_name(name)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no account '{name}'")))?;
        if account.role != Role::Owner {
            return Err(ServiceError::BadRequest(format!(
                "'{name}' is not an owner's account: its token is given anew where it was made"
            )));
        }
        let contact = self.store.contact_of(name).await?;
        self.hand(&account, contact, reset.handout).await
    }

    /// The account a one-time link's `code` is for, if the link is still good.
    ///
    /// # Errors
    /// [`ServiceError::Store`].
    pub async fn invited(&self, code: &str) -> Result<Option<Account>, ServiceError> {
        Ok(self.store.invited(&token_hash(code), now_ms()).await?)
    }

    /// Uses a one-time link: its account gets a new token (returned, to be shown once) and a
    /// session. The link is used up.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for a link unknown, used or expired.
    pub async fn redeem_invite(&self, code: &str) -> Result<(String, NewSession), ServiceError> {
        let account = self
            .store
            .take_invite(&token_hash(code), now_ms())
            .await?
            .ok_or_else(|| {
                ServiceError::NotFound(
                    "this link is used or has expired: ask your teacher for a new one".into(),
                )
            })?;
        let token = crate::auth::new_token();
        self.store
            .set_token(&account.name, &token_hash(&token))
            .await?;
        let session = self.sign_in(&token).await?;
        Ok((token, session))
    }
}
