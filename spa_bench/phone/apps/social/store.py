"""Circle's state in SQLite: `/data/data/com.spa.social/databases/social.db`.

- `users(_id, handle, name, bio, lang, hue, followers, following)`: `_id` 1 is the phone's owner
  (`lang` ''), everyone else belongs to one language's feed (`en` / `zh`);
- `follows(user_id, followed_at)`: whom the owner follows;
- `posts(_id, author_id, lang, text, topic, image, visibility, like_count, created_at)`: `topic` is
  the hashtag without '#', `image` is `scene:<kind>` (a seeded picture) or the /sdcard path of the
  photo picked in Compose, `visibility` is `public` or `friends`; seeded posts have ids below 1000
  and the first post made on the phone gets 1001;
- `likes(post_id, user_id, created_at)`: named likes (the owner's, `user_id` 1, and the people who
  liked the owner's posts); `posts.like_count` is the total shown, kept in step with the owner's likes;
- `comments(_id, post_id, author_id, parent_id, text, created_at)`: `parent_id` is the comment a reply
  answers (NULL for a top-level comment); the first comment made on the phone gets 1001;
- `bookmarks(post_id, saved_at)`: the owner's saved posts.
Times are epoch milliseconds.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.social.seed import ME, ME_ID, POSTS, USERS

SCHEMA = """
CREATE TABLE users (_id INTEGER PRIMARY KEY, handle TEXT UNIQUE NOT NULL, name TEXT NOT NULL, bio TEXT,
    lang TEXT NOT NULL, hue TEXT, followers INTEGER NOT NULL DEFAULT 0, following INTEGER NOT NULL DEFAULT 0);
CREATE TABLE follows (user_id INTEGER PRIMARY KEY, followed_at INTEGER NOT NULL);
CREATE TABLE posts (_id INTEGER PRIMARY KEY AUTOINCREMENT, author_id INTEGER NOT NULL, lang TEXT NOT NULL,
    text TEXT NOT NULL, topic TEXT, image TEXT, visibility TEXT NOT NULL DEFAULT 'public',
    like_count INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
CREATE TABLE likes (post_id INTEGER NOT NULL, user_id INTEGER NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (post_id, user_id));
CREATE TABLE comments (_id INTEGER PRIMARY KEY AUTOINCREMENT, post_id INTEGER NOT NULL,
    author_id INTEGER NOT NULL, parent_id INTEGER, text TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE bookmarks (post_id INTEGER PRIMARY KEY, saved_at INTEGER NOT NULL);
"""
FIRST_NEW_ID = 1001
EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
EN_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
ZH_DAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


@dataclass(frozen=True)
class User:
    id: int
    handle: str
    name: str
    bio: str
    lang: str
    hue: str
    followers: int
    following: int
    followed: bool

    @property
    def is_me(self) -> bool:
        return self.id == ME_ID


@dataclass(frozen=True)
class Post:
    id: int
    author: User
    text: str
    topic: str
    image: str
    visibility: str
    likes: int
    comments: int
    created_at: int
    liked: bool
    saved: bool


@dataclass(frozen=True)
class Comment:
    id: int
    post_id: int
    author: User
    parent: User | None  # whom a reply answers
    text: str
    created_at: int


@dataclass(frozen=True)
class Notice:
    """A like or comment by someone else on one of the owner's posts."""

    kind: str  # "like" | "comment"
    who: User
    post_id: int
    post_text: str
    text: str
    created_at: int


def ms(when: datetime) -> int:
    return round((when - datetime(1970, 1, 1)).total_seconds() * 1000)


def event_date(day: datetime, lang: str) -> str:
    """How a post writes a day: "Sat, Aug 9" / "8月9日（周六）"."""
    if lang == "zh":
        return f"{day.month}月{day.day}日（{ZH_DAYS[day.weekday()]}）"
    return f"{EN_DAYS[day.weekday()]}, {EN_MONTHS[day.month - 1]} {day.day}"


def seed(conn: sqlite3.Connection, now: datetime) -> None:
    """Fill an empty database: people, posts, comments and likes, timed back from `now`."""
    conn.execute("INSERT INTO users VALUES (?,?,?,?,?,?,?,?)", (ME_ID, "me", "", "", "", "green", 127, 0))
    for u in USERS:
        conn.execute(
            "INSERT INTO users VALUES (?,?,?,?,?,?,?,?)",
            (u.id, u.handle, u.name, u.bio, u.lang, u.hue, u.followers, u.following),
        )
        if u.followed:
            conn.execute("INSERT INTO follows VALUES (?,?)", (u.id, ms(now - timedelta(days=40 + u.id))))
    for p in POSTS:
        when = now - timedelta(hours=p.hours_ago)
        text = p.text
        if p.event_days:
            day = datetime.combine(now.date() + timedelta(days=p.event_days), datetime.min.time())
            text = text.replace("{date}", event_date(day, p.lang))
        conn.execute(
            "INSERT INTO posts VALUES (?,?,?,?,?,?,?,?,?)",
            (p.id, p.author, p.lang, text, p.topic, p.image or None, "public", p.likes, ms(when)),
        )
        ids: list[int] = []
        for c in p.comments:
            parent = ids[c.reply_to - 1] if c.reply_to else None
            cur = conn.execute(
                "INSERT INTO comments (post_id, author_id, parent_id, text, created_at) VALUES (?,?,?,?,?)",
                (p.id, c.author, parent, c.text, ms(when + timedelta(minutes=c.minutes))),
            )
            ids.append(int(cur.lastrowid or 0))
        for i, who in enumerate(p.likers):
            conn.execute(
                "INSERT INTO likes VALUES (?,?,?)", (p.id, who, ms(when + timedelta(minutes=5 + 7 * i)))
            )
        if p.liked:
            conn.execute("INSERT INTO likes VALUES (?,?,?)", (p.id, ME_ID, ms(when + timedelta(minutes=90))))
        if p.saved:
            conn.execute("INSERT INTO bookmarks VALUES (?,?)", (p.id, ms(when + timedelta(minutes=95))))
    for table in ("posts", "comments"):
        conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (FIRST_NEW_ID - 1, table))


POST_SELECT = """
SELECT p.*, (SELECT COUNT(*) FROM comments c WHERE c.post_id = p._id) AS n_comments,
    EXISTS (SELECT 1 FROM likes l WHERE l.post_id = p._id AND l.user_id = 1) AS liked,
    EXISTS (SELECT 1 FROM bookmarks b WHERE b.post_id = p._id) AS saved
FROM posts p
"""


class SocialStore(AppDatabase):
    def __init__(self, path: Callable[[], Path], now: Callable[[], datetime]) -> None:
        super().__init__(path)
        self._now = now

    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            seed(conn, self._now())
            conn.execute("COMMIT")

    def now_ms(self) -> int:
        return ms(self._now())

    # -- people -------------------------------------------------------------------------------------------
    def _users(self, conn: sqlite3.Connection, lang: str) -> dict[int, User]:
        followed = {int(r[0]) for r in conn.execute("SELECT user_id FROM follows")}
        n_following = conn.execute(
            "SELECT COUNT(*) FROM follows f JOIN users u ON u._id = f.user_id WHERE u.lang = ?", (lang,)
        ).fetchone()[0]
        users = {}
        for r in conn.execute("SELECT * FROM users"):
            uid = int(r["_id"])
            if uid == ME_ID:
                name, handle, bio = ME.get(lang, ME["en"])
                users[uid] = User(
                    uid, handle, name, bio, "", r["hue"], int(r["followers"]), n_following, False
                )
            else:
                users[uid] = User(
                    uid,
                    r["handle"],
                    r["name"],
                    r["bio"] or "",
                    r["lang"],
                    r["hue"] or "grey",
                    int(r["followers"]) + (uid in followed),
                    int(r["following"]),
                    uid in followed,
                )
        return users

    def users(self, lang: str) -> list[User]:
        """The people of one language's network (not the owner), by name."""
        with self.db() as conn:
            users = self._users(conn, lang)
        return sorted((u for u in users.values() if u.lang == lang), key=lambda u: u.name.casefold())

    def user(self, user_id: int, lang: str) -> User | None:
        with self.db() as conn:
            return self._users(conn, lang).get(user_id)

    def set_follow(self, user_id: int, follow: bool) -> None:
        with self.db() as conn:
            if follow:
                conn.execute("INSERT OR IGNORE INTO follows VALUES (?,?)", (user_id, self.now_ms()))
            else:
                conn.execute("DELETE FROM follows WHERE user_id = ?", (user_id,))

    # -- posts --------------------------------------------------------------------------------------------
    def _posts(self, lang: str, where: str = "", args: tuple[object, ...] = ()) -> list[Post]:
        with self.db() as conn:
            users = self._users(conn, lang)
            rows = conn.execute(
                POST_SELECT
                + "WHERE p.lang = ? "
                + (f"AND ({where}) " if where else "")
                + "ORDER BY p.created_at DESC, p._id DESC",
                (lang, *args),
            ).fetchall()
        return [
            Post(
                int(r["_id"]),
                users[int(r["author_id"])],
                r["text"],
                r["topic"] or "",
                r["image"] or "",
                r["visibility"],
                int(r["like_count"]),
                int(r["n_comments"]),
                int(r["created_at"]),
                bool(r["liked"]),
                bool(r["saved"]),
            )
            for r in rows
            if int(r["author_id"]) in users
        ]

    def feed(self, lang: str, following_only: bool = False) -> list[Post]:
        if following_only:
            return self._posts(lang, "p.author_id IN (SELECT user_id FROM follows)")
        return self._posts(lang)

    def post(self, post_id: int, lang: str) -> Post | None:
        found = self._posts(lang, "p._id = ?", (post_id,))
        return found[0] if found else None

    def posts_by(self, user_id: int, lang: str) -> list[Post]:
        return self._posts(lang, "p.author_id = ?", (user_id,))

    def saved(self, lang: str) -> list[Post]:
        return self._posts(lang, "p._id IN (SELECT post_id FROM bookmarks)")

    def with_topic(self, topic: str, lang: str) -> list[Post]:
        return self._posts(lang, "lower(p.topic) = lower(?)", (topic,))

    def topics(self, lang: str) -> list[tuple[str, int]]:
        """Hashtags of one language with their post counts, most used first."""
        with self.db() as conn:
            rows = conn.execute(
                "SELECT topic, COUNT(*) FROM posts WHERE lang = ? AND topic IS NOT NULL AND topic != '' "
                "GROUP BY lower(topic) ORDER BY COUNT(*) DESC, topic",
                (lang,),
            ).fetchall()
        return [(str(r[0]), int(r[1])) for r in rows]

    def create_post(self, lang: str, text: str, topic: str, image: str, visibility: str) -> int:
        with self.db() as conn:
            cur = conn.execute(
                "INSERT INTO posts (author_id, lang, text, topic, image, visibility, like_count, created_at) "
                "VALUES (?,?,?,?,?,?,0,?)",
                (ME_ID, lang, text, topic or None, image or None, visibility, self.now_ms()),
            )
            return int(cur.lastrowid or 0)

    def delete_post(self, post_id: int) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute("DELETE FROM posts WHERE _id = ? AND author_id = ?", (post_id, ME_ID))
            if conn.execute("SELECT changes()").fetchone()[0]:
                for table in ("comments", "likes", "bookmarks"):
                    conn.execute(f"DELETE FROM {table} WHERE post_id = ?", (post_id,))
            conn.execute("COMMIT")

    def toggle_like(self, post_id: int) -> bool:
        """Like or unlike as the owner; True when the post is now liked."""
        with self.db() as conn:
            conn.execute("BEGIN")
            gone = conn.execute(
                "DELETE FROM likes WHERE post_id = ? AND user_id = ?", (post_id, ME_ID)
            ).rowcount
            if gone:
                conn.execute("UPDATE posts SET like_count = max(0, like_count - 1) WHERE _id = ?", (post_id,))
            else:
                conn.execute("INSERT INTO likes VALUES (?,?,?)", (post_id, ME_ID, self.now_ms()))
                conn.execute("UPDATE posts SET like_count = like_count + 1 WHERE _id = ?", (post_id,))
            conn.execute("COMMIT")
        return not gone

    def toggle_saved(self, post_id: int) -> bool:
        with self.db() as conn:
            gone = conn.execute("DELETE FROM bookmarks WHERE post_id = ?", (post_id,)).rowcount
            if not gone:
                conn.execute("INSERT INTO bookmarks VALUES (?,?)", (post_id, self.now_ms()))
        return not gone

    # -- comments -----------------------------------------------------------------------------------------
    def comments(self, post_id: int, lang: str) -> list[Comment]:
        """A post's comments, oldest first."""
        with self.db() as conn:
            users = self._users(conn, lang)
            rows = conn.execute(
                "SELECT c.*, p.author_id AS parent_author FROM comments c LEFT JOIN comments p "
                "ON p._id = c.parent_id WHERE c.post_id = ? ORDER BY c.created_at, c._id",
                (post_id,),
            ).fetchall()
        return [
            Comment(
                int(r["_id"]),
                post_id,
                users[int(r["author_id"])],
                users.get(int(r["parent_author"])) if r["parent_author"] is not None else None,
                r["text"],
                int(r["created_at"]),
            )
            for r in rows
            if int(r["author_id"]) in users
        ]

    def add_comment(self, post_id: int, text: str, parent_id: int | None = None) -> int:
        with self.db() as conn:
            cur = conn.execute(
                "INSERT INTO comments (post_id, author_id, parent_id, text, created_at) VALUES (?,?,?,?,?)",
                (post_id, ME_ID, parent_id, text, self.now_ms()),
            )
            return int(cur.lastrowid or 0)

    # -- notifications ------------------------------------------------------------------------------------
    def notices(self, lang: str) -> list[Notice]:
        """Likes and comments by others on the owner's posts in `lang`, newest first."""
        with self.db() as conn:
            users = self._users(conn, lang)
            rows = conn.execute(
                "SELECT 'like' AS kind, l.user_id AS who, p._id AS post_id, p.text AS post_text, '' AS body, "
                "l.created_at AS at FROM likes l JOIN posts p ON p._id = l.post_id "
                "WHERE p.author_id = 1 AND l.user_id != 1 AND p.lang = ? "
                "UNION ALL SELECT 'comment', c.author_id, p._id, p.text, c.text, c.created_at "
                "FROM comments c JOIN posts p ON p._id = c.post_id "
                "WHERE p.author_id = 1 AND c.author_id != 1 AND p.lang = ? "
                "ORDER BY at DESC",
                (lang, lang),
            ).fetchall()
        return [
            Notice(
                r["kind"], users[int(r["who"])], int(r["post_id"]), r["post_text"], r["body"], int(r["at"])
            )
            for r in rows
            if int(r["who"]) in users
        ]
