/** The message the paste window sends to the page that opened it. */
export const PASTE_MESSAGE = 'consultation-notes:paste';

/**
 * The bookmarklet: run on a page of another system (a clinic's record system), it finds the text box to fill
 * (the focused one, else the first), opens this app's paste window, and inserts the note the clinician picks
 * there. It accepts a message only from this app's origin and of the expected shape (spec §5: content not from
 * the product is refused), and says so when the page has no text box.
 */
export function bookmarkletCode(origin: string, noTextBoxMessage: string): string {
  const script = `(function(){
var o=${JSON.stringify(origin)};
var a=document.activeElement;
var t=a&&(a.tagName==='TEXTAREA'||a.isContentEditable)?a:document.querySelector('textarea');
if(!t){alert(${JSON.stringify(noTextBoxMessage)});return;}
window.open(o+'/paste?to='+encodeURIComponent(location.origin),'consultation-notes-paste','width=520,height=680');
function m(e){
if(e.origin!==o||!e.data||e.data.type!==${JSON.stringify(PASTE_MESSAGE)}||typeof e.data.text!=='string')return;
window.removeEventListener('message',m);
t.focus();
if(t.tagName==='TEXTAREA'){var s=t.selectionStart||0,n=t.selectionEnd||0;t.value=t.value.slice(0,s)+e.data.text+t.value.slice(n);t.selectionStart=t.selectionEnd=s+e.data.text.length;}
else{document.execCommand('insertText',false,e.data.text);}
t.dispatchEvent(new Event('input',{bubbles:true}));
}
window.addEventListener('message',m);
})();`;
  return `javascript:${encodeURIComponent(script.replace(/\n/g, ''))}`;
}

/** The page the paste window may answer: an http(s) origin, nothing else. */
export function targetOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
