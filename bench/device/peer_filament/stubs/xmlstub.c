#include <stdio.h>
#include <stdlib.h>
static void die(const char *f){fprintf(stderr,"libxml2 stub (hilo3d .fil): %s called\n",f);abort();}
static void stubfree(void *p){free(p);}
void (*xmlFree)(void *) = stubfree;
void xmlAddChild(void){die("xmlAddChild");}
void xmlCopyNamespace(void){die("xmlCopyNamespace");}
void xmlDocDumpFormatMemoryEnc(void){die("xmlDocDumpFormatMemoryEnc");}
void xmlDocGetRootElement(void){die("xmlDocGetRootElement");}
void xmlDocSetRootElement(void){die("xmlDocSetRootElement");}
void xmlFreeDoc(void){die("xmlFreeDoc");}
void xmlFreeNode(void){die("xmlFreeNode");}
void xmlFreeNs(void){die("xmlFreeNs");}
void xmlKeepBlanksDefault(void){die("xmlKeepBlanksDefault");}
void xmlNewDoc(void){die("xmlNewDoc");}
void xmlNewNs(void){die("xmlNewNs");}
void xmlNewProp(void){die("xmlNewProp");}
void xmlReadMemory(void){die("xmlReadMemory");}
void xmlSetGenericErrorFunc(void){die("xmlSetGenericErrorFunc");}
void xmlStrdup(void){die("xmlStrdup");}
void xmlUnlinkNode(void){die("xmlUnlinkNode");}
