#!/usr/bin/env python3
"""Writes corpus/flowcharts/: hand-written flowcharts of the kind people ask an AI
for (decisions with loop-backs, branches that rejoin, retries, state machines with
self-loops, trees, diamonds, an org chart). Written for this benchmark; the
charts below are the source, the JSON files are what the benchmark reads.

Each chart: nodes as "id shape Label text" (shape: rect, rounded, ellipse,
diamond), edges as "a>b" (several per line, separated by spaces).
Run: python3 tools/make_flowcharts.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "corpus", "flowcharts")

CHARTS = {
    "decision_loop": ("""
        s ellipse Start
        r rect Read input
        v diamond Valid?
        e rect Show error
        p rect Process
        m diamond More?
        x ellipse End
    """, "s>r r>v v>e e>r v>p p>m m>r m>x"),
    "login_retry": ("""
        s ellipse Start
        c rect Enter credentials
        v diamond Valid?
        a diamond Attempts < 3?
        l rect Lock account
        d rect Open dashboard
        x ellipse End
    """, "s>c c>v v>d v>a a>c a>l l>x d>x"),
    "http_retry": ("""
        s rect Send request
        ok diamond 2xx?
        p rect Parse body
        rt diamond Retryable?
        w rect Wait with backoff
        er rect Report error
        d ellipse Done
    """, "s>ok ok>p p>d ok>rt rt>w w>s rt>er er>d"),
    "order_fulfilment": ("""
        o ellipse Order received
        st diamond In stock?
        pk rect Pick items
        pa rect Pack
        sh rect Ship
        n rect Notify customer
        b rect Backorder
        ws rect Wait for supplier
        pay diamond Paid?
        rm rect Send reminder
        d ellipse Done
    """, "o>pay pay>rm rm>pay pay>st st>pk pk>pa pa>sh sh>n n>d st>b b>ws ws>st"),
    "checkout": ("""
        c rect Cart
        co rect Checkout
        li diamond Logged in?
        lg rect Log in
        pm rect Payment
        po diamond Payment OK?
        rp diamond Retry?
        cn ellipse Cancel order
        cf rect Confirm order
        em rect Send receipt email
        d ellipse Done
    """, "c>co co>li li>lg lg>co li>pm pm>po po>rp rp>pm rp>cn po>cf cf>em em>d cn>d"),
    "ml_training": ("""
        ld rect Load data
        pp rect Preprocess
        tr rect Train model
        ev rect Evaluate
        ge diamond Good enough?
        tu rect Tune hyperparameters
        dp rect Deploy
        mo rect Monitor
        dr diamond Drift detected?
    """, "ld>pp pp>tr tr>ev ev>ge ge>tu tu>tr ge>dp dp>mo mo>dr dr>ld dr>mo"),
    "incident_response": ("""
        al ellipse Alert fires
        tg rect Triage
        s1 diamond Severity 1?
        pg rect Page on-call
        mt rect Mitigate
        rs diamond Resolved?
        es rect Escalate
        tk rect Open ticket
        fx rect Fix in sprint
        pm rect Write postmortem
        cl ellipse Close
    """, "al>tg tg>s1 s1>pg pg>mt mt>rs rs>es es>mt rs>pm s1>tk tk>fx fx>pm pm>cl"),
    "bug_triage": ("""
        n ellipse New bug
        rp diamond Reproducible?
        ni rect Ask for info
        rr diamond Reporter replied?
        cl ellipse Close
        sv diamond Severity high?
        hf rect Hotfix
        bl rect Backlog
        sp rect Sprint work
        ts rect Test
        pa diamond Pass?
        rl rect Release
    """, "n>rp rp>ni ni>rr rr>rp rr>cl rp>sv sv>hf sv>bl bl>sp hf>ts sp>ts ts>pa pa>hf pa>rl rl>cl"),
    "ci_pipeline": ("""
        pu ellipse Push
        ck rect Checkout
        li rect Lint
        ut rect Unit tests
        it rect Integration tests
        bd rect Build image
        sc rect Security scan
        dc rect Build docs
        st rect Deploy to staging
        ap diamond Approved?
        pr rect Deploy to production
        rb rect Roll back
    """, "pu>ck ck>li ck>ut ck>it li>bd ut>bd it>bd bd>sc bd>dc sc>st dc>st st>ap ap>pr ap>rb rb>st"),
    "double_diamond": ("""
        a rect Start
        b rect Parse
        c rect Lint
        d rect Type check
        e rect Bundle
        f rect Minify
        g rect Source maps
        h rect Upload
    """, "a>b b>c b>d c>e d>e e>f e>g f>h g>h"),
    "connection_states": ("""
        id rounded Idle
        cn rounded Connecting
        co rounded Connected
        rc rounded Reconnecting
        cg rounded Closing
        cd rounded Closed
    """, "id>id id>cn cn>co cn>rc co>co co>rc rc>rc rc>co rc>cg co>cg cg>cd cd>id"),
    "document_states": ("""
        dr rounded Draft
        rv rounded In review
        ap rounded Approved
        pb rounded Published
        ar rounded Archived
        rj rounded Rejected
    """, "dr>dr dr>rv rv>rv rv>ap rv>rj rj>dr ap>pb pb>pb pb>ar ar>dr ap>dr"),
    "vending_machine": ("""
        id rounded Idle
        hc rounded Has coins
        sl rounded Selecting
        ds rounded Dispensing
        rf rounded Refunding
        oo rounded Out of order
    """, "id>hc hc>hc hc>sl sl>sl sl>ds ds>id sl>rf hc>rf rf>id id>oo oo>oo oo>id"),
    "org_chart": ("""
        ceo rect CEO
        cto rect CTO
        cfo rect CFO
        coo rect COO
        em1 rect Engineering manager, platform
        em2 rect Engineering manager, apps
        arc rect Chief architect
        d1 rect Developer
        d2 rect Developer
        d3 rect Developer
        d4 rect Developer
        d5 rect Developer
        acc rect Accounting
        fpa rect Planning and analysis
        ops rect Operations
        sup rect Support
        hr rect People
    """, "ceo>cto ceo>cfo ceo>coo cto>em1 cto>em2 cto>arc em1>d1 em1>d2 em1>d3 em2>d4 em2>d5 cfo>acc cfo>fpa coo>ops coo>sup coo>hr"),
    "decision_tree": ("""
        q1 diamond Has account?
        q2 diamond Password known?
        q3 diamond Wants account?
        q4 diamond 2FA enabled?
        a1 rect Reset password
        a2 rect Sign up
        a3 rect Continue as guest
        a4 rect Enter code
        a5 rect Log in
        a6 rect Verify email
        a7 rect Show home
    """, "q1>q2 q1>q3 q2>q4 q2>a1 q3>a2 q3>a3 q4>a4 q4>a5 a2>a6 a4>a7 a5>a7 a6>a7 a1>q2"),
    "approval_flow": ("""
        s ellipse Request submitted
        m diamond Amount > 1000?
        mg rect Manager approves?
        fn rect Finance approves?
        ok diamond Approved?
        ch rect Request changes
        py rect Pay out
        nt rect Notify requester
        x ellipse End
    """, "s>m m>mg m>fn mg>ok fn>ok ok>ch ch>s ok>py py>nt nt>x"),
}


def main():
    for name, (nodes, edges) in CHARTS.items():
        parsed = []
        for line in nodes.strip().splitlines():
            nid, shape, label = line.split(None, 2)
            parsed.append({"id": nid, "label": label, "shape": shape})
        graph = {
            "name": name,
            "set": "flowcharts",
            "source": "hand-written for this benchmark: tools/make_flowcharts.py",
            "licence": "written for this benchmark (the project's licence)",
            "nodes": parsed,
            "edges": [{"from": e.split(">")[0], "to": e.split(">")[1]} for e in edges.split()],
        }
        ids = {n["id"] for n in parsed}
        assert all(e["from"] in ids and e["to"] in ids for e in graph["edges"]), name
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(graph, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
