// mmtree explorer: reads the embedded tree once into typed arrays, then draws only the states
// that are open. Node i of the preorder arrays has code[i] (its guess, or the secret of a
// leaf), kids[i] children (255 for a leaf) and fbIn[i], the feedback of the edge into it.
(function () {
  'use strict';
  var LEAF = 255;
  var meta = JSON.parse(document.getElementById('tree-meta').textContent);
  var N = meta.nodes;
  var W = meta.width;
  var n = meta.n;
  var k = meta.k;
  var symbols = Array.from(meta.symbols);

  var text = atob(document.getElementById('tree-data').textContent.trim());
  var bytes = new Uint8Array(text.length);
  for (var b = 0; b < text.length; b++) bytes[b] = text.charCodeAt(b);
  var code = new Uint32Array(N);
  for (var i = 0; i < N; i++) {
    var v = 0;
    for (var w = W - 1; w >= 0; w--) v = v * 256 + bytes[i * W + w];
    code[i] = v;
  }
  var kids = bytes.subarray(N * W, N * W + N);
  var fbIn = bytes.subarray(N * W + N, N * W + 2 * N);
  var isLeaf = function (i) { return kids[i] === LEAF; };
  var childCount = function (i) { return isLeaf(i) ? 0 : kids[i]; };

  // end[i]: one past the last node of i's subtree (children follow their parent in preorder).
  var end = new Int32Array(N);
  for (i = N - 1; i >= 0; i--) {
    var c = i + 1;
    for (var j = 0; j < childCount(i) && c < N; j++) c = end[c];
    end[i] = Math.min(c, N);
  }
  var parent = new Int32Array(N).fill(-1);
  var depth = new Uint16Array(N);
  for (i = 0; i < N; i++) {
    c = i + 1;
    for (j = 0; j < childCount(i) && c < N; j++) {
      parent[c] = i;
      depth[c] = depth[i] + 1;
      c = end[c];
    }
  }
  var leaves = new Uint32Array(N);
  for (i = N - 1; i >= 0; i--) {
    if (isLeaf(i)) leaves[i] += 1;
    if (parent[i] >= 0) leaves[parent[i]] += leaves[i];
  }
  // The leaf of each secret (every code has one in a complete tree; -1 marks none).
  var leafIndex = new Int32Array(Math.min(meta.codes, 1 << 26)).fill(-1);
  for (i = 0; i < N; i++) if (isLeaf(i) && code[i] < leafIndex.length) leafIndex[code[i]] = i;
  var leafOf = function (c) { return c < leafIndex.length && leafIndex[c] >= 0 ? leafIndex[c] : undefined; };

  function children(i) {
    var out = [];
    var c = i + 1;
    for (var j = 0; j < childCount(i) && c < N; j++) {
      out.push(c);
      c = end[c];
    }
    return out;
  }

  // Codes are numbered in lexicographic order: base k digits, or the arrangements of n
  // distinct symbols when the game has no repetition.
  function codeName(index) {
    if (index >= meta.codes) return '#' + index;
    var out = [];
    if (!meta.distinct) {
      for (var p = 0; p < n; p++) {
        out.unshift(symbols[index % k]);
        index = Math.floor(index / k);
      }
      return out.join('');
    }
    var free = symbols.slice(0, k);
    for (p = 0; p < n; p++) {
      var rest = 1;
      for (var q = 0; q < n - 1 - p; q++) rest *= k - 1 - p - q;
      var pick = Math.floor(index / rest);
      index %= rest;
      out.push(free.splice(pick, 1)[0]);
    }
    return out.join('');
  }

  function parseCode(typed) {
    var chars = Array.from(typed.trim());
    if (chars.length === 0) return { error: 'Type a secret, e.g. ' + codeName(meta.codes - 1) + '.' };
    if (chars.length !== n) {
      return { error: "'" + typed.trim() + "' has " + chars.length + ' symbols; codes of ' + meta.game + ' have ' + n + '.' };
    }
    var colours = [];
    for (var p = 0; p < n; p++) {
      var at = symbols.indexOf(chars[p]);
      if (at < 0) at = symbols.indexOf(chars[p].toUpperCase());
      if (at < 0) return { error: "symbol '" + chars[p] + "' is not one of " + meta.symbols + '.' };
      colours.push(at);
    }
    var index = 0;
    if (!meta.distinct) {
      for (p = 0; p < n; p++) index = index * k + colours[p];
      return { index: index };
    }
    var used = [];
    for (p = 0; p < n; p++) {
      if (used.indexOf(colours[p]) >= 0) return { error: "'" + typed.trim() + "' repeats a symbol; this game has no repetition." };
      var smaller = 0;
      for (var s = 0; s < colours[p]; s++) if (used.indexOf(s) < 0) smaller++;
      var rest = 1;
      for (var q = 0; q < n - 1 - p; q++) rest *= k - 1 - p - q;
      index += smaller * rest;
      used.push(colours[p]);
    }
    return { index: index };
  }

  function feedbackName(f) {
    return f < meta.feedbacks.length ? meta.feedbacks[f] : '#' + f;
  }
  function plural(count, word) {
    return count + ' ' + word + (count === 1 ? '' : 's');
  }
  function guesses(count) {
    return count + (count === 1 ? ' guess' : ' guesses');
  }
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.textContent = content;
    return e;
  }
  // The candidates of a state are the secrets of the leaves below it, in code order.
  function candidates(i) {
    var out = [];
    for (var m = i; m < end[i]; m++) if (isLeaf(m)) out.push(code[m]);
    return out.sort(function (a, b) { return a - b; });
  }
  function isCandidate(i) {
    var leaf = leafOf(code[i]);
    return leaf !== undefined && leaf >= i && leaf < end[i];
  }
  function rounds(i) {
    var path = [];
    for (var m = i; parent[m] >= 0; m = parent[m]) path.unshift(codeName(code[parent[m]]) + ' ' + feedbackName(fbIn[m]));
    return path;
  }

  // ---- the tree view ----
  var treeEl = document.getElementById('tree');
  var items = new Map(); // node -> its <li>, for the nodes drawn so far
  var selected = -1;

  function rowOf(i) {
    var row = el('div', 'row');
    row.appendChild(el('span', 'twisty', isLeaf(i) ? '' : '▸'));
    if (parent[i] < 0) {
      row.appendChild(el('span', 'edge', 'start'));
    } else {
      row.appendChild(el('span', 'edge', feedbackName(fbIn[i])));
      row.appendChild(el('span', 'arrow', '→'));
    }
    if (isLeaf(i)) {
      var found = el('span', 'found');
      found.append('✓ found ', el('b', null, codeName(code[i])), ' in ' + guesses(depth[i]));
      row.appendChild(found);
      return row;
    }
    row.appendChild(el('span', 'size', plural(leaves[i], 'candidate')));
    var guess = el('span', 'guess');
    guess.append('guess ', el('b', null, codeName(code[i])));
    row.appendChild(guess);
    if (leaves[i] > 1 && leaves[i] <= meta.maxSet) {
      row.appendChild(el('span', 'cands', '{' + candidates(i).map(codeName).join(', ') + '}'));
    }
    return row;
  }

  function itemOf(i) {
    var li = el('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-level', String(depth[i] + 1));
    li.setAttribute('aria-selected', 'false');
    li.tabIndex = -1;
    li.dataset.node = String(i);
    if (!isLeaf(i)) li.setAttribute('aria-expanded', 'false');
    li.appendChild(rowOf(i));
    items.set(i, li);
    return li;
  }

  function expand(i, open) {
    var li = items.get(i);
    if (!li || isLeaf(i)) return;
    if (open && !li.querySelector(':scope > ul')) {
      var group = el('ul');
      group.setAttribute('role', 'group');
      children(i).forEach(function (c) { group.appendChild(itemOf(c)); });
      li.appendChild(group);
    }
    li.setAttribute('aria-expanded', open ? 'true' : 'false');
    li.querySelector(':scope > .row > .twisty').textContent = open ? '▾' : '▸';
  }
  function isOpen(i) {
    var li = items.get(i);
    return !!li && li.getAttribute('aria-expanded') === 'true';
  }

  function select(i, focus) {
    if (selected >= 0 && items.get(selected)) {
      var old = items.get(selected);
      old.setAttribute('aria-selected', 'false');
      old.tabIndex = -1;
    }
    selected = i;
    var li = items.get(i);
    li.setAttribute('aria-selected', 'true');
    li.tabIndex = 0;
    if (focus) li.focus({ preventScroll: true });
    li.scrollIntoView({ block: 'nearest' });
    showDetails(i);
  }

  // ---- details of the selected state ----
  var details = document.getElementById('details');

  function histogramTable(counts) {
    var top = Math.max.apply(null, counts.concat([1]));
    var table = el('table', 'hist');
    var head = table.createTHead().insertRow();
    ['guesses', 'bar', 'secrets'].forEach(function (h) {
      var th = el('th', h === 'bar' ? 'visually-hidden' : null, h);
      th.scope = 'col';
      head.appendChild(th);
    });
    var body = table.createTBody();
    var first = counts.findIndex(function (x) { return x > 0; });
    counts.forEach(function (count, d) {
      if (d < first) return;
      var tr = body.insertRow();
      var th = el('th', null, String(d + 1));
      th.scope = 'row';
      tr.appendChild(th);
      var bar = el('span', 'bar');
      bar.style.width = (100 * count / top).toFixed(1) + '%';
      var cell = el('td', 'bar-cell');
      cell.appendChild(bar);
      tr.appendChild(cell);
      tr.appendChild(el('td', 'count', String(count)));
    });
    return table;
  }

  function showDetails(i) {
    details.textContent = '';
    details.appendChild(el('h2', null, isLeaf(i) ? 'Secret found' : 'Selected state'));
    var path = rounds(i);
    details.appendChild(el('p', 'rounds', path.length ? 'Rounds: ' + path.join(' · ') : 'Start: no rounds played yet'));
    var dl = el('dl');
    function fact(name, value) {
      dl.appendChild(el('dt', null, name));
      var dd = el('dd', null, value);
      dd.dataset.fact = name;
      dl.appendChild(dd);
    }
    // Guesses needed below this state, counted from the start of the game.
    var counts = [];
    var total = 0;
    for (var m = i; m < end[i]; m++) {
      if (!isLeaf(m)) continue;
      while (counts.length < depth[m]) counts.push(0);
      counts[depth[m] - 1] += 1;
      total += depth[m];
    }
    if (isLeaf(i)) {
      fact('secret', codeName(code[i]));
      fact('guesses', String(depth[i]));
    } else {
      fact('candidates', String(leaves[i]));
      fact('guess', codeName(code[i]) + (isCandidate(i) ? ' (a candidate)' : ' (not a candidate)'));
      fact('parts', String(childCount(i)));
      fact('most guesses', String(counts.length));
      fact('average guesses', (total / leaves[i]).toFixed(4));
    }
    details.appendChild(dl);
    if (isLeaf(i)) return;
    details.appendChild(el('h3', null, 'Parts after ' + codeName(code[i])));
    var table = el('table', 'parts');
    var head = table.createTHead().insertRow();
    ['feedback', 'size', 'next'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    var body = table.createTBody();
    children(i).forEach(function (c) {
      var tr = body.insertRow();
      tr.appendChild(el('td', 'edge', feedbackName(fbIn[c])));
      tr.appendChild(el('td', 'num', String(leaves[c])));
      tr.appendChild(el('td', 'code', isLeaf(c) ? 'found ' + codeName(code[c]) : 'guess ' + codeName(code[c])));
    });
    details.appendChild(table);
    if (leaves[i] <= meta.maxSet) {
      details.appendChild(el('h3', null, 'Candidates'));
      details.appendChild(el('p', 'code', candidates(i).map(codeName).join(' ')));
    }
    details.appendChild(el('h3', null, 'Secrets below by guesses needed'));
    details.appendChild(histogramTable(counts));
  }

  // ---- moving around ----
  function nodeOf(li) { return Number(li.dataset.node); }
  function visibleAfter(i) {
    if (isOpen(i) && childCount(i) > 0) return i + 1;
    for (var m = i; m >= 0; m = parent[m]) {
      if (parent[m] >= 0 && end[m] < end[parent[m]]) return end[m];
    }
    return -1;
  }
  function visibleBefore(i) {
    var p = parent[i];
    if (p < 0) return -1;
    var siblings = children(p);
    var at = siblings.indexOf(i);
    if (at === 0) return p;
    var m = siblings[at - 1];
    while (isOpen(m) && childCount(m) > 0) m = children(m)[childCount(m) - 1];
    return m;
  }
  function toggle(i) {
    if (!isLeaf(i)) expand(i, !isOpen(i));
  }

  treeEl.addEventListener('click', function (event) {
    var li = event.target.closest('li[role="treeitem"]');
    if (!li || !event.target.closest('.row')) return;
    var i = nodeOf(li);
    toggle(i);
    select(i, true);
  });
  treeEl.addEventListener('keydown', function (event) {
    if (selected < 0) return;
    var i = selected;
    var next = -1;
    switch (event.key) {
      case 'ArrowDown': next = visibleAfter(i); break;
      case 'ArrowUp': next = visibleBefore(i); break;
      case 'ArrowRight':
        if (!isLeaf(i) && !isOpen(i)) expand(i, true);
        else if (isOpen(i)) next = i + 1;
        break;
      case 'ArrowLeft':
        if (isOpen(i)) expand(i, false);
        else next = parent[i];
        break;
      case 'Enter':
      case ' ':
        toggle(i);
        break;
      case 'Home': next = 0; break;
      default: return;
    }
    event.preventDefault();
    if (next >= 0) select(next, true);
  });

  // ---- finding a secret ----
  var form = document.getElementById('search');
  var input = document.getElementById('secret');
  var message = document.getElementById('search-message');
  var marked = [];

  function showPath(leaf) {
    marked.forEach(function (li) {
      li.classList.remove('on-path');
      var badge = li.querySelector(':scope > .row > .badge');
      if (badge) badge.remove();
    });
    marked = [];
    var path = [];
    for (var m = leaf; m >= 0; m = parent[m]) path.unshift(m);
    path.forEach(function (m, r) {
      if (m !== leaf) expand(m, true);
      var li = items.get(m);
      li.classList.add('on-path');
      li.querySelector(':scope > .row').appendChild(el('span', 'badge', m === leaf ? 'solved' : 'round ' + (r + 1)));
      marked.push(li);
    });
    select(leaf, false);
    return path;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var parsed = parseCode(input.value);
    message.className = '';
    if (parsed.error) {
      message.className = 'error';
      message.textContent = parsed.error;
      return;
    }
    var leaf = leafOf(parsed.index);
    if (leaf === undefined) {
      message.className = 'error';
      message.textContent = codeName(parsed.index) + ' is not a secret of this tree.';
      return;
    }
    var path = showPath(leaf);
    var played = path.slice(0, -1).map(function (m, r) {
      return codeName(code[m]) + ' ' + feedbackName(fbIn[path[r + 1]]);
    });
    message.textContent = codeName(code[leaf]) + ': ' + guesses(path.length - 1) + ' — ' + played.join(', ');
  });

  document.addEventListener('keydown', function (event) {
    if (event.key === '/' && event.target !== input) {
      event.preventDefault();
      input.focus();
      input.select();
    } else if (event.key === 'Escape' && event.target === input && selected >= 0) {
      items.get(selected).focus();
    }
  });

  // ---- first view: the root, open ----
  treeEl.textContent = '';
  if (N > 0) {
    treeEl.appendChild(itemOf(0));
    expand(0, true);
    select(0, false);
  }
  document.body.dataset.ready = 'true';
  if (window.performance && performance.mark) performance.mark('mmtree-tree-ready');
})();
